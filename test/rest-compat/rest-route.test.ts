/**
 * The /v1 route runner (src/rest-compat/rest-route.ts): an operation is stopped when its caller
 * goes away before the answer is written (a long-poll wait releases its waiter at once), and an
 * answered request leaves nothing behind.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { postWithKey } from '../helpers/faces.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  key = await apiKey(t, await newAccount(t));
});
afterAll(() => t?.stop());

const post = (path: string, body: unknown, signal?: AbortSignal) =>
  postWithKey(t, key)(path, body, signal);

test('a wait whose caller disconnects is ended and its waiter released; an answered wait leaves none', async () => {
  const waiters = t.app.challenges.waiters;
  const { session_id: id } = (await (
    await post('/v1/sessions', { channel: 'email_otp' })
  ).json()) as {
    session_id: string;
  };

  const abort = new AbortController();
  const waiting = post(`/v1/sessions/${id}/wait`, { timeout: 120 }, abort.signal).catch(
    (error: unknown) => error,
  );
  await expect.poll(() => waiters.size).toBe(1);
  abort.abort();
  expect(await waiting).toBeInstanceOf(Error);
  await expect.poll(() => waiters.size).toBe(0);

  // The session is still there to wait on, and a wait that answers (a timeout) ends cleanly.
  const answered = await post(`/v1/sessions/${id}/wait`, { timeout: 1 });
  expect(answered.status).toBe(200);
  expect(await answered.json()).toMatchObject({ session_id: id, verdict: 'timeout' });
  expect(waiters.size).toBe(0);
});
