/**
 * A throw-away PostgreSQL database for a bench run, created on the server that
 * LATCHKEY_BENCH_DATABASE_URL (or LATCHKEY_TEST_DATABASE_URL) names and dropped afterwards, so a
 * bench never writes into that shared database itself. Undefined when neither is set.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** One statement on a connection of its own; its rows. */
async function runOn(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * Statistics for every table, as autovacuum would have gathered by now on a maintained server
 * (the bench server runs without it).
 */
export const analyzeDatabase = async (url: string) => {
  await runOn(url, 'analyze');
};

/**
 * Who gathers the planner statistics of a bench database, for the figures' header: the server's
 * autovacuum, or (where that is off, as on the bench machines so far) the service itself by
 * autovacuum's rule (src/db/analyzer.ts; trees before session 9 did not).
 */
export async function describeStatistics(url: string, analyzedByBench: string | null) {
  const [row] = await runOn(url, `select current_setting('autovacuum') as autovacuum`);
  const who =
    row?.autovacuum === 'on'
      ? 'PostgreSQL statistics by its autovacuum'
      : "PostgreSQL runs without autovacuum: the service analyzes by autovacuum's rule (src/db/analyzer.ts; trees before session 9 did not)";
  return analyzedByBench ? `${who}; ${analyzedByBench}` : who;
}

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function freshPostgres(): Promise<BenchDatabase | undefined> {
  const admin = process.env.LATCHKEY_BENCH_DATABASE_URL || process.env.LATCHKEY_TEST_DATABASE_URL;
  if (!admin) return undefined;
  const name = `latchkey_bench_${randomBytes(4).toString('hex')}`;
  await runOn(admin, `create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      await runOn(admin, `drop database if exists ${name} with (force)`);
    },
  };
}
