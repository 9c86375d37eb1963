/**
 * Test databases. With LATCHKEY_TEST_DATABASE_URL set (CI points it at the real PostgreSQL), each
 * test app gets a fresh database of its own on that server, dropped afterwards, so test files run
 * in parallel without sharing rows. Without it, each app runs on an in-memory embedded PGlite.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseOptions, openDatabase } from '../../src/db/orm.ts';
import { newSealingKey } from '../../src/db/sealing-keys.ts';

export const realPostgresUrl = process.env.LATCHKEY_TEST_DATABASE_URL || undefined;

export interface TestDatabase {
  /** undefined means "use the embedded database". */
  url: string | undefined;
  /**
   * A SECRETS_KEY for every instance on this database: instances that share rows must share the
   * key those rows are sealed with (each test app has a DATA_DIR, and so a key file, of its own).
   */
  secretsKey: string;
  drop(): Promise<void>;
}

const newSecretsKey = () => `shared:${randomBytes(32).toString('base64url')}`;

async function admin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<TestDatabase> {
  if (!realPostgresUrl)
    return { url: undefined, secretsKey: newSecretsKey(), drop: async () => {} };
  const name = `latchkey_test_${randomBytes(6).toString('hex')}`;
  await admin(realPostgresUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(realPostgresUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    secretsKey: newSecretsKey(),
    drop: () =>
      admin(realPostgresUrl, (client) =>
        client.query(`drop database if exists ${name} with (force)`),
      ).then(() => undefined),
  };
}

/**
 * A fresh in-memory embedded database (PGlite on its own thread, behind its socket), whatever
 * database the rest of the suite uses; `options` override the defaults.
 */
export function openInMemoryEmbedded(dataDir: string, options: Partial<DatabaseOptions> = {}) {
  return openDatabase({
    databaseUrl: undefined,
    dataDir,
    embeddedInMemory: true,
    sealingKeys: [newSealingKey()],
    log: () => {},
    ...options,
  });
}
