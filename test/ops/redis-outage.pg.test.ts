/**
 * Issue 11 §6 with Redis: `/readyz` fails, naming Redis, while the configured Redis is
 * unreachable (refusing or silent), and recovers with it; the database-backed API keeps serving
 * meanwhile, since limits and consumption are decided in the database.
 * Needs a real PostgreSQL (LATCHKEY_TEST_DATABASE_URL) and Redis (LATCHKEY_TEST_REDIS_URL); the
 * service reaches Redis only through a TCP proxy the test cuts and restores.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { rest } from '../helpers/faces.ts';
import { type FaultProxy, startProxiedRedis } from '../helpers/faults.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

const redisUrl = process.env.LATCHKEY_TEST_REDIS_URL;
let proxy: FaultProxy;
let t: TestApp;

beforeAll(async () => {
  if (!redisUrl || !process.env.LATCHKEY_TEST_DATABASE_URL) {
    throw new Error('needs LATCHKEY_TEST_DATABASE_URL and LATCHKEY_TEST_REDIS_URL');
  }
  const redis = await startProxiedRedis(redisUrl);
  proxy = redis.proxy;
  t = await startTestApp({ env: { REDIS_URL: redis.url } });
});
afterAll(async () => {
  await t?.stop();
  await proxy?.close();
});
afterEach(() => proxy.restore());

async function readiness() {
  const response = await fetch(`${t.baseUrl}/readyz`);
  return { status: response.status, body: await response.json() };
}

test('/readyz fails naming Redis while it refuses connections, and recovers with it', async () => {
  expect(await readiness()).toEqual({
    status: 200,
    body: { status: 'ok', database: 'ok', redis: 'ok' },
  });
  proxy.cut();
  expect(await readiness()).toEqual({
    status: 503,
    body: { status: 'unavailable', database: 'ok', redis: 'unreachable' },
  });
  proxy.restore();
  // ioredis reconnects on its own back-off; readiness follows as soon as it has.
  await expect.poll(async () => (await readiness()).status, { timeout: 10_000 }).toBe(200);
});

test('/readyz fails, within its bound, while Redis accepts connections but never answers', async () => {
  proxy.blackhole();
  const answer = await readiness();
  expect(answer.status).toBe(503);
  expect(answer.body.redis).toBe('unreachable');
});

test('with Redis unreachable the API keeps serving from the database', async () => {
  const key = await apiKey(t, await newAccount(t));
  proxy.cut();
  const opened = await rest(t, 'POST', '/v1/sessions', key, {});
  expect(opened.status).toBe(201);
  expect((await rest(t, 'GET', `/v1/sessions/${opened.body.session_id}`, key)).status).toBe(200);
});
