/**
 * Issue 20, across instances: two service instances sharing one PostgreSQL database. Parallel
 * totp challenges on one authenticator, waited on both instances at once, get distinct time steps
 * and so distinct codes: the step claim is a primary key in the shared database, not memory.
 * Both instances read time from one TestClock, so steps pass without sleeping.
 * Needs a real PostgreSQL (LATCHKEY_TEST_DATABASE_URL).
 */
import { authenticator as stock } from 'otplib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestApp } from '../../helpers/app.ts';
import { startChallengeApp, TestClock } from '../../helpers/challenges.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';
import { rest } from '../../helpers/faces.ts';
import { apiKey, newAccount } from '../../helpers/principals.ts';

let database: TestDatabase;
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  if (!process.env.LATCHKEY_TEST_DATABASE_URL) throw new Error('needs LATCHKEY_TEST_DATABASE_URL');
  database = await createTestDatabase();
  // Instances sharing a database share the sealing keys (each has its own DATA_DIR).
  const env = {
    DATABASE_URL: database.url!,
    SECRETS_KEY: database.secretsKey,
  };
  a = await startChallengeApp({ env });
  b = await startChallengeApp({ env });
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await database?.drop();
});

test('parallel totp challenges on one authenticator, waited on two instances, get distinct steps and codes', async () => {
  expect(a.app.db.embedded).toBe(false);
  const clock = new TestClock(new Date(Date.UTC(2026, 5, 1, 12, 0, 0)));
  for (const instance of [a, b]) {
    Object.assign(instance.app.challenges, { clock: clock.now, after: clock.after });
  }
  const key = await apiKey(a, await newAccount(a));
  const secret = stock.generateSecret(20);
  const created = await rest(a, 'POST', '/v1/authenticators', key, {
    target: 'shared.example',
    otpauth_uri: stock.keyuri('ops@example.com', 'Shared', secret),
  });
  expect(created.status).toBe(201);
  const instances = [a, b, a, b, a, b];
  const sessions = await Promise.all(
    instances.map(async (instance) => {
      const opened = await rest(instance, 'POST', '/v1/sessions', key, {
        channel: 'totp',
        target: 'shared.example',
      });
      expect(opened.status).toBe(201);
      return opened.body.session_id as string;
    }),
  );
  const answers = await Promise.all(
    sessions.map((id, i) =>
      rest(instances[i]!, 'POST', `/v1/sessions/${id}/wait`, key, { timeout: 300 }),
    ),
  );
  for (const answer of answers) expect(answer.body.verdict).toBe('otp_code');
  const steps = answers.map((answer) => new Date(answer.body.valid_until).getTime() / 30_000 - 1);
  expect(new Set(steps).size).toBe(sessions.length);
  expect(new Set(answers.map((answer) => answer.body.otp_code)).size).toBe(sessions.length);
  for (const answer of answers) {
    const at = new Date(answer.body.received_at).getTime();
    expect(answer.body.otp_code).toBe(stock.clone({ epoch: at }).generate(secret));
  }
  // The claims are rows of the shared database: each kept one names a session of the six, once.
  const rows = await a.app.db.orm.em
    .fork()
    .execute<{ session_id: string }[]>(
      'select session_id from totp_step where authenticator_id = ?',
      [created.body.id],
    );
  expect(rows.length).toBeGreaterThan(0);
  expect(new Set(rows.map((r) => r.session_id)).size).toBe(rows.length);
  for (const row of rows) expect(sessions).toContain(row.session_id);
});
