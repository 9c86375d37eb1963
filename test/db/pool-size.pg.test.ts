/**
 * DATABASE_POOL_MAX honoured on a real PostgreSQL: however many statements an instance sends at
 * once, the server never sees more of its connections than that (issue 16).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect, test } from 'vitest';
import { openDatabase } from '../../src/db/orm.ts';
import { createTestDatabase, realPostgresUrl } from '../helpers/database.ts';

test('twelve statements at once never hold more than DATABASE_POOL_MAX connections', async () => {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'latchkey-pool-size-'));
  const db = await openDatabase({ databaseUrl: database.url, dataDir, poolMax: 3 });
  const monitor = new pg.Client({ connectionString: realPostgresUrl });
  await monitor.connect();
  try {
    const name = new URL(database.url!).pathname.slice(1);
    let done = false;
    const sleeps = Promise.all(
      Array.from({ length: 12 }, () => db.orm.em.fork().execute('select pg_sleep(0.15) as slept')),
    ).finally(() => {
      done = true;
    });
    const seen: number[] = [];
    while (!done) {
      const { rows } = await monitor.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where datname = $1',
        [name],
      );
      seen.push(rows[0]!.n);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    await sleeps;
    // Twelve 150 ms statements through three connections take four rounds, all of them busy.
    expect(Math.max(...seen)).toBe(3);
  } finally {
    await monitor.end();
    await db.orm.close(true);
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
});
