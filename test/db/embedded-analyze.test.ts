/**
 * PGlite has no autovacuum, so the embedded database refreshes its own planner statistics
 * (src/db/orm.ts EMBEDDED_ANALYZE_INTERVAL_MS): without them ingest's session lookup scanned every
 * active session. Always runs on PGlite, whatever database the rest of the suite uses.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { openDatabase } from '../../src/db/orm.ts';
import { newSealingKey } from '../../src/db/sealing-keys.ts';
import { newId } from '../../src/entities/base.ts';

const scratch = await mkdtemp(path.join(tmpdir(), 'latchkey-analyze-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

const ROWS = 300;

test('the embedded database gathers planner statistics on its own after rows are written', async () => {
  const db = await openDatabase({
    databaseUrl: undefined,
    dataDir: scratch,
    embeddedInMemory: true,
    sealingKeys: [newSealingKey()],
    log: () => {},
    embeddedAnalyzeIntervalMs: 300,
  });
  try {
    const em = db.orm.em.fork();
    const estimate = async () => {
      const [row] = await em.execute<{ reltuples: number }[]>(
        "select reltuples::float8 as reltuples from pg_class where relname = 'account'",
      );
      return Number(row!.reltuples);
    };
    for (let i = 0; i < ROWS; i++) {
      await em.execute(
        "insert into account (id, created_at, updated_at, name, tier) values (?, now(), now(), ?, 'free')",
        [newId('acc'), `analyze ${i}`],
      );
    }
    // Inserts alone never move the planner's row estimate on PGlite (no autovacuum); the refresh
    // runs on its period: wait for it (a bounded poll, not a timed assertion).
    let seen = await estimate();
    for (let i = 0; i < 100 && seen < ROWS; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = await estimate();
    }
    expect(seen).toBe(ROWS);
  } finally {
    await db.close();
  }
});
