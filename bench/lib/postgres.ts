/**
 * A throw-away PostgreSQL database for a bench run, created on the server that
 * LATCHKEY_BENCH_DATABASE_URL (or LATCHKEY_TEST_DATABASE_URL) names and dropped afterwards, so a
 * bench never writes into that shared database itself. Undefined when neither is set.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** One statement on a connection of its own. */
async function runOn(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Statistics for every table, as autovacuum would have gathered by now on a maintained server
 * (the bench server runs without it).
 */
export const analyzeDatabase = (url: string) => runOn(url, 'analyze');

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
    drop: () => runOn(admin, `drop database if exists ${name} with (force)`),
  };
}
