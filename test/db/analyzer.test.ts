/**
 * Where no autovacuum runs, the service gathers its own planner statistics by autovacuum's rule
 * (src/db/analyzer.ts): a table is analyzed once more than 50 + 10 % of its rows changed since its
 * last analyze, and not before. Without statistics ingest's session lookup scanned every active
 * session. Always runs on PGlite (which has no autovacuum), and on the configured PostgreSQL
 * server, where the analyzer runs exactly when that server's autovacuum is off.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { type Database, openDatabase } from '../../src/db/orm.ts';
import { newSealingKey } from '../../src/db/sealing-keys.ts';
import { newId } from '../../src/entities/base.ts';
import { createTestDatabase, openInMemoryEmbedded } from '../helpers/database.ts';

const scratch = await mkdtemp(path.join(tmpdir(), 'latchkey-analyze-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

const CHECK_MS = 200;

test('embedded: a table is analyzed once more than 50 + 10 % of its rows changed, and not before', async () => {
  const db = await openInMemoryEmbedded(scratch, { analyzeIntervalMs: CHECK_MS });
  try {
    expect(db.gathersStatistics).toBe(true);
    await followsAutovacuumsRule(db);
  } finally {
    await db.close();
  }
});

// The suite's database: PostgreSQL in CI (whose server runs without autovacuum), or PGlite again
// when none is configured.
test("the suite's database: the service analyzes by the same rule exactly when no autovacuum runs", async () => {
  const target = await createTestDatabase();
  const db = await openDatabase({
    databaseUrl: target.url,
    dataDir: scratch,
    embeddedInMemory: true,
    sealingKeys: [newSealingKey()],
    log: () => {},
    analyzeIntervalMs: CHECK_MS,
  });
  try {
    const [row] = await db.orm.em
      .fork()
      .execute<{ autovacuum: string }[]>(`select current_setting('autovacuum') as autovacuum`);
    expect(db.gathersStatistics).toBe(db.embedded || row!.autovacuum === 'off');
    // With autovacuum on, the server's own analyses follow this rule; the service adds none.
    if (db.gathersStatistics) await followsAutovacuumsRule(db);
  } finally {
    await db.close();
    await target.drop();
  }
});

async function followsAutovacuumsRule(db: Database) {
  const em = db.orm.em.fork();
  const state = async () => {
    const [row] = await em.execute<{ reltuples: number; analyzed: number }[]>(
      `select c.reltuples::float8 as reltuples, s.analyze_count::int as analyzed
           from pg_class c join pg_stat_user_tables s on s.relid = c.oid
          where c.relname = 'account'`,
    );
    return { rows: Number(row!.reltuples), analyzed: Number(row!.analyzed) };
  };
  const insert = async (count: number) => {
    for (let i = 0; i < count; i++) {
      await em.execute(
        "insert into account (id, created_at, updated_at, name, tier) values (?, now(), now(), ?, 'free')",
        [newId('acc'), `analyze ${i}`],
      );
    }
  };
  /** Waits (a bounded poll, not a timed assertion) until `done` or 10 s have passed. */
  const settle = async (done: (s: { rows: number; analyzed: number }) => boolean) => {
    let seen = await state();
    for (let i = 0; i < 100 && !done(seen); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = await state();
    }
    return seen;
  };

  // 300 new rows in a table never analyzed: past the threshold of 50, analyzed once.
  await insert(300);
  const first = await settle((s) => s.rows === 300);
  expect(first).toEqual({ rows: 300, analyzed: 1 });

  // 20 more (under 50 + 10 % of 300 = 80): several checks later, still not analyzed again.
  await insert(20);
  await new Promise((resolve) => setTimeout(resolve, 2_000 + 5 * CHECK_MS));
  expect(await state()).toEqual({ rows: 300, analyzed: 1 });

  // 70 more (90 changes in all since the analyze, past 80): analyzed a second time.
  await insert(70);
  expect(await settle((s) => s.analyzed === 2)).toEqual({ rows: 390, analyzed: 2 });
}
