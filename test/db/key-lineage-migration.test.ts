/**
 * Migration 20261125100200 (key lineage): keys that existed before it get their lineage from
 * `created_by`, down the whole tree, so revoking an agent also reaches keys minted by its keys.
 * Runs on the suite's database (embedded, or a throw-away PostgreSQL one).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type Database, openDatabase } from '../../src/db/orm.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

let database: TestDatabase;
let db: Database;
let dataDir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'latchkey-lineage-'));
  db = await openDatabase({
    databaseUrl: database.url,
    dataDir,
    embeddedInMemory: true,
    log: () => {},
  });
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

test('existing keys get their parent and the agent they derive from, down the tree', async () => {
  await db.orm.migrator.down({ to: 'Migration20261122052852_challenge_sessions' });
  const sql = db.orm.em.fork().getConnection();
  const now = new Date();
  await sql.execute(
    "insert into account (id, created_at, updated_at, name, tier) values ('acc_m', ?, ?, 'm', 'free')",
    [now, now],
  );
  const key = (id: string, createdBy: string) =>
    sql.execute(
      `insert into api_key (id, created_at, updated_at, account_id, name, secret_hash, hint, scope, created_by)
       values (?, ?, ?, 'acc_m', ?, ?, 'lk_live_…', 'sessions:read', ?)`,
      [id, now, now, id, id.padEnd(64, '0'), createdBy],
    );
  await key('key_agent', 'reg_agent');
  await key('key_child', 'key_agent');
  await key('key_grandchild', 'key_child');
  await key('key_person', 'usr_person');
  await key('key_orphan', 'key_gone');

  await db.orm.migrator.up();
  const rows = await sql.execute(
    'select id, parent_key_id, registration_id from api_key order by id',
  );
  expect(rows).toEqual([
    { id: 'key_agent', parent_key_id: null, registration_id: 'reg_agent' },
    { id: 'key_child', parent_key_id: 'key_agent', registration_id: 'reg_agent' },
    { id: 'key_grandchild', parent_key_id: 'key_child', registration_id: 'reg_agent' },
    { id: 'key_orphan', parent_key_id: null, registration_id: null },
    { id: 'key_person', parent_key_id: null, registration_id: null },
  ]);
  // The cascade: deleting the agent's key takes its descendants along.
  await sql.execute("delete from api_key where id = 'key_agent'");
  expect(await sql.execute('select id from api_key order by id')).toEqual([
    { id: 'key_orphan' },
    { id: 'key_person' },
  ]);
});
