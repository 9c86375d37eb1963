/**
 * Two instances sharing one PostgreSQL database share the webhook outbox: every delivery is sent,
 * none twice while both are alive (SKIP LOCKED claims with leases), and both take part.
 * Needs a real PostgreSQL (LATCHKEY_TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createWebhookEndpoint, sendTestEvent } from '../../src/domain/webhooks/endpoints.ts';
import type { TestApp } from '../helpers/app.ts';
import { createAccount, ctxOf, startChallengeApp } from '../helpers/challenges.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.ts';

let database: TestDatabase;
let a: TestApp;
let b: TestApp;
let receivers: Receiver[];

beforeAll(async () => {
  if (!process.env.LATCHKEY_TEST_DATABASE_URL) throw new Error('needs LATCHKEY_TEST_DATABASE_URL');
  database = await createTestDatabase();
  // Instances sharing a database share the sealing keys (each has its own DATA_DIR).
  const env = {
    DATABASE_URL: database.url!,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    SECRETS_KEY: database.secretsKey,
  };
  a = await startChallengeApp({ env });
  b = await startChallengeApp({ env });
  receivers = await Promise.all(Array.from({ length: 4 }, () => startReceiver()));
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await database?.drop();
  await Promise.all((receivers ?? []).map((r) => r.close()));
});

test('200 deliveries queued on one instance are each sent exactly once by the two instances together', async () => {
  const accountId = await createAccount(a.app);
  const endpoints = [];
  for (const receiver of receivers) {
    endpoints.push(await createWebhookEndpoint(ctxOf(a.app), accountId, { url: receiver.url }));
  }
  for (let i = 0; i < 50; i++) {
    for (const { endpoint } of endpoints) await sendTestEvent(ctxOf(a.app), accountId, endpoint.id);
  }
  b.app.challenges.webhooks.wake();
  await Promise.all(receivers.map((r) => r.next(50)));
  await Promise.all([a.app.challenges.webhooks.flush(), b.app.challenges.webhooks.flush()]);
  const ids = receivers.flatMap((r) => r.received.map((q) => q.headers['webhook-id']));
  expect(ids).toHaveLength(200);
  expect(new Set(ids).size).toBe(200);
  const [{ n }] = (await a.app.db.orm.em
    .fork()
    .execute<{ n: number }[]>(
      "select count(*)::int as n from webhook_delivery where status = 'delivered' and attempts = 1",
    )) as [{ n: number }];
  expect(n).toBe(200);
  const sentBy = async (app: TestApp) =>
    (await app.app.challenges.webhooks.metrics.deliveries.get()).values
      .filter((v) => v.labels.outcome === 'delivered')
      .reduce((sum, v) => sum + v.value, 0);
  expect((await sentBy(a)) + (await sentBy(b))).toBe(200);
});
