/**
 * Instances sharing one PostgreSQL database must share the sealing keys: an instance whose keys do
 * not open what the others sealed refuses to start, naming the missing key, instead of serving
 * with secrets it cannot read.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { SealedValueError } from '../../src/db/sealer.ts';
import { startTestApp } from '../helpers/app.ts';
import { createTestDatabase } from '../helpers/database.ts';

const database = await createTestDatabase();
const scratch = await mkdtemp(path.join(tmpdir(), 'latchkey-shared-keys-'));
afterAll(async () => {
  await database.drop();
  await rm(scratch, { recursive: true, force: true });
});

const key = () => randomBytes(32).toString('base64url');

test('an instance without the key the others sealed with refuses to start, naming that key', async () => {
  const first = await startTestApp({
    env: { DATABASE_URL: database.url!, SECRETS_KEY: `a:${key()}` },
  });
  try {
    // buildApp directly: the test helper would leave its own throw-away database behind.
    const refused = buildApp(
      loadConfig({
        DATABASE_URL: database.url!,
        SECRETS_KEY: `b:${key()}`,
        DATA_DIR: scratch,
        LOG_LEVEL: 'silent',
        SMTP_PORT: '0',
      }),
    );
    await expect(refused).rejects.toBeInstanceOf(SealedValueError);
    await expect(refused).rejects.toThrow(/sealed with key "a"/);
  } finally {
    await first.stop();
  }
});
