/**
 * Issue 16: the hot statements run as named prepared statements on the ORM's own pool
 * (src/db/prepared.ts). They must return what `em.execute` returned, keep a transaction's
 * statements on its connection, convert errors the same way, and keep working on the embedded
 * database, where every connection reaches the same PGlite session.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Pool } from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { type Database, openDatabase } from '../../src/db/orm.ts';
import { executePrepared, prepared } from '../../src/db/prepared.ts';
import { newSealingKey } from '../../src/db/sealing-keys.ts';
import { createTestDatabase } from '../helpers/database.ts';

const scratch = await mkdtemp(path.join(tmpdir(), 'latchkey-prepared-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));
const quiet = () => {};

async function open(databaseUrl: string | undefined, name: string): Promise<Database> {
  return openDatabase({
    databaseUrl,
    dataDir: path.join(scratch, name),
    embeddedInMemory: true,
    log: quiet,
    sealingKeys: [newSealingKey()],
  });
}

const poolOf = (db: Database) => db.orm.em.getConnection().getNativeClient() as Promise<Pool>;

const PROBE_TABLE = `create table prepared_probe (id text primary key, at timestamptz not null,
  flag boolean not null, body bytea, note text)`;
const INSERT_PROBE = prepared(
  'test_prepared_probe_insert',
  'insert into prepared_probe (id, at, flag, body, note) values (?, ?, ?, ?, ?) returning *',
);
const SELECT_PROBE = prepared(
  'test_prepared_probe_select',
  "select id, at, flag, body, note, 'what' as quoted from prepared_probe where id = ? and at = ?",
);

describe('prepared()', () => {
  test('numbers the ? placeholders $1…$n', () => {
    expect(SELECT_PROBE.text).toBe(
      "select id, at, flag, body, note, 'what' as quoted from prepared_probe where id = $1 and at = $2",
    );
    expect(SELECT_PROBE.arity).toBe(2);
    expect(SELECT_PROBE.source).toContain('id = ? and at = ?');
  });

  test('refuses what it cannot rewrite safely', () => {
    expect(() => prepared('test_jsonb_op', "select '{}'::jsonb ?| array['a']")).toThrow(/jsonb/);
    expect(() => prepared('test_comment', 'select 1 -- why?')).toThrow(/comments/);
    expect(() => prepared('test_quoted', "select 'why?'")).toThrow(/inside quotes/);
    expect(() => prepared('test_quote', "select 'open")).toThrow(/unterminated/);
  });

  test('refuses one name for two texts', () => {
    prepared('test_twice', 'select 1');
    expect(prepared('test_twice', 'select 1').text).toBe('select 1');
    expect(() => prepared('test_twice', 'select 2')).toThrow(/declared twice/);
  });
});

describe('executePrepared', async () => {
  const testDb = await createTestDatabase();
  const db = await open(testDb.url, 'main');
  afterAll(async () => {
    await db.close();
    await testDb.drop();
  });
  await db.orm.em.fork().execute(PROBE_TABLE);
  const at = new Date('2026-11-25T11:45:00.123Z');

  test('returns the rows em.execute returns, values typed as before', async () => {
    const [inserted] = await executePrepared<Record<string, unknown>>(
      db.orm.em.fork(),
      INSERT_PROBE,
      ['p1', at, true, Buffer.from([0, 1, 255]), null],
    );
    const [viaOrm] = await db.orm.em
      .fork()
      .execute<Record<string, unknown>[]>(
        "select id, at, flag, body, note, 'what' as quoted from prepared_probe where id = ? and at = ?",
        ['p1', at],
      );
    const [viaPrepared] = await executePrepared<Record<string, unknown>>(
      db.orm.em.fork(),
      SELECT_PROBE,
      ['p1', at],
    );
    // Timestamps come back as the ORM's type parsers leave them (text), on both paths.
    expect(new Date(inserted!.at as string)).toEqual(at);
    expect(inserted).toEqual({
      id: 'p1',
      at: inserted!.at,
      flag: true,
      body: Buffer.from([0, 1, 255]),
      note: null,
    });
    expect(viaPrepared).toEqual(viaOrm);
    expect(viaPrepared).toEqual({ ...inserted, quoted: 'what' });
  });

  test('one Date passed several times, between others, is sent as the same instant each time', async () => {
    const later = new Date('2026-11-25T11:46:30.5Z');
    const [row] = await executePrepared<Record<string, string>>(
      db.orm.em.fork(),
      prepared(
        'test_dates',
        'select ?::timestamptz as a, ?::timestamptz as b, ?::timestamptz as c, ?::timestamptz as d',
      ),
      [at, later, at, later],
    );
    expect([row!.a, row!.b, row!.c, row!.d].map((text) => new Date(text).getTime())).toEqual([
      at.getTime(),
      later.getTime(),
      at.getTime(),
      later.getTime(),
    ]);
  });

  test('is prepared once by name on the connection and reused', async () => {
    await executePrepared(db.orm.em.fork(), SELECT_PROBE, ['p1', at]);
    const pool = await poolOf(db);
    // Hold every pooled connection at once, so each one's statements can be listed.
    const clients = await Promise.all(
      Array.from({ length: Math.min(pool.totalCount, db.embedded ? 1 : 10) }, () => pool.connect()),
    );
    try {
      const named = await Promise.all(
        clients.map((client) =>
          client
            .query<{ name: string; statement: string }>(
              'select name, statement from pg_prepared_statements where name = $1',
              [SELECT_PROBE.name],
            )
            .then((result) => result.rows),
        ),
      );
      expect(named.flat().map((row) => row.statement)).toContain(SELECT_PROBE.text);
    } finally {
      for (const client of clients) client.release();
    }
  });

  test('is planned once, generically, from its first execution, on analyzed tables too', async () => {
    // PostgreSQL's default `auto` mode plans a statement's first five executions with their
    // values, and once the tables are analyzed it went on doing so for the open statement on
    // every execution (bench/results/throughput.md, session 8). Each pooled connection is set to
    // generic plans (orm.ts), so none of its executions is planned again.
    await db.orm.em
      .fork()
      .execute(
        "insert into prepared_probe (id, at, flag) select 'g' || i, now(), i % 2 = 0 from generate_series(1, 200) as i",
      );
    await db.orm.em.fork().execute('analyze prepared_probe');
    const client = await (await poolOf(db)).connect();
    try {
      const query = { name: SELECT_PROBE.name, text: SELECT_PROBE.text, values: ['g7', at] };
      for (let i = 0; i < 8; i++) await client.query(query);
      const { rows } = await client.query<{ generic_plans: string; custom_plans: string }>(
        'select generic_plans, custom_plans from pg_prepared_statements where name = $1',
        [SELECT_PROBE.name],
      );
      // The connection may have run it before this test (the pool reuses connections).
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]!.custom_plans)).toBe(0);
      expect(Number(rows[0]!.generic_plans)).toBeGreaterThanOrEqual(8);
    } finally {
      client.release();
    }
  });

  test('inside a transaction it runs on the transaction connection', async () => {
    const seen = await db.orm.em.fork().transactional(async (tx) => {
      await tx.execute('insert into prepared_probe (id, at, flag) values (?, ?, ?)', [
        'p2',
        at,
        false,
      ]);
      return executePrepared<{ id: string }>(tx, SELECT_PROBE, ['p2', at]);
    });
    expect(seen.map((row) => row.id)).toEqual(['p2']);
  });

  test('errors are MikroORM exceptions, as from em.execute', async () => {
    await expect(
      executePrepared(db.orm.em.fork(), INSERT_PROBE, ['p1', at, true, null, null]),
    ).rejects.toBeInstanceOf(UniqueConstraintViolationException);
  });

  test('a wrong number of values is refused before anything is sent', async () => {
    await expect(executePrepared(db.orm.em.fork(), SELECT_PROBE, ['p1'])).rejects.toThrow(
      /takes 2 values, got 1/,
    );
  });
});

describe('on the embedded database', async () => {
  const db = await open(undefined, 'embedded');
  afterAll(() => db.close());
  await db.orm.em.fork().execute(PROBE_TABLE);

  test('a new connection prepares again although the PGlite session kept the old statement', async () => {
    const at = new Date('2026-11-25T12:00:00Z');
    await executePrepared(db.orm.em.fork(), INSERT_PROBE, ['e1', at, true, null, 'x']);
    await executePrepared(db.orm.em.fork(), SELECT_PROBE, ['e1', at]);
    const pool = await poolOf(db);
    // Retire the connection that prepared it; the pool opens a new one to the same session.
    const client = await pool.connect();
    client.release(true);
    const rows = await executePrepared<{ note: string }>(db.orm.em.fork(), SELECT_PROBE, [
      'e1',
      at,
    ]);
    expect(rows.map((row) => row.note)).toEqual(['x']);
    const again = await executePrepared<{ note: string }>(db.orm.em.fork(), SELECT_PROBE, [
      'e1',
      at,
    ]);
    expect(again.map((row) => row.note)).toEqual(['x']);
  });
});
