/**
 * A throw-away PostgreSQL database for a bench run, created on the server that
 * LATCHKEY_BENCH_DATABASE_URL (or LATCHKEY_TEST_DATABASE_URL) names and dropped afterwards, so a
 * bench never writes into that shared database itself. Undefined when neither is set.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface BenchDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function freshPostgres(): Promise<BenchDatabase | undefined> {
  const admin = process.env.LATCHKEY_BENCH_DATABASE_URL || process.env.LATCHKEY_TEST_DATABASE_URL;
  if (!admin) return undefined;
  const name = `latchkey_bench_${randomBytes(4).toString('hex')}`;
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => run(`drop database if exists ${name} with (force)`) };
}
