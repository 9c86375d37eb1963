/**
 * Idempotency-Key (decisions.md "Idempotency"): on POST /v1/sessions, POST
 * /v1/sessions/:id/reroute and POST /v1/webhooks, a repeat with the same body replays the first
 * answer and bills nothing more; another body is 422 `idempotency_key_reused`; parallel repeats
 * never both execute; keys are per credential and last 24 h.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { countRows, startChallengeApp, TestClock } from '../helpers/challenges.ts';
import { apiKey, newAccount, withKey } from '../helpers/principals.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startChallengeApp({
    env: { WEBHOOK_ALLOW_PRIVATE: 'true', FREE_TIER_MONTHLY_SESSIONS: '10000' },
  });
});
afterAll(() => t?.stop());

async function post(path: string, key: string, idempotencyKey: string | null, body: unknown) {
  const response = await fetch(t.baseUrl + path, {
    method: 'POST',
    headers: {
      ...withKey(key),
      'content-type': 'application/json',
      ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) };
}

test('a repeated POST /v1/sessions with the same key and body replays the first answer and bills once', async () => {
  const account = await newAccount(t);
  const key = await apiKey(t, account);
  const first = await post('/v1/sessions', key, 'open-1', {
    channel: 'email_otp',
    target: 'a.example',
  });
  expect(first.status).toBe(201);
  // Same body with its keys in another order is the same request.
  const again = await post('/v1/sessions', key, 'open-1', {
    target: 'a.example',
    channel: 'email_otp',
  });
  expect(again.status).toBe(201);
  expect(again.body).toEqual(first.body);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(await countRows(t.app, 'challenge_session', 'account_id = ?', [account])).toBe(1);
  expect(await countRows(t.app, 'usage_event', 'account_id = ?', [account])).toBe(1);

  const other = await post('/v1/sessions', key, 'open-1', { channel: 'sms_otp' });
  expect(other.status).toBe(422);
  expect(other.body.code).toBe('idempotency_key_reused');
  expect(await countRows(t.app, 'challenge_session', 'account_id = ?', [account])).toBe(1);

  // Without a key, or with a new one, each request runs.
  expect((await post('/v1/sessions', key, null, { channel: 'email_otp' })).status).toBe(201);
  expect((await post('/v1/sessions', key, 'open-2', { channel: 'email_otp' })).status).toBe(201);
  expect(await countRows(t.app, 'challenge_session', 'account_id = ?', [account])).toBe(3);
});

test('parallel requests with one key execute once: the others replay it or are told it is in progress', async () => {
  const account = await newAccount(t);
  const key = await apiKey(t, account);
  const answers = await Promise.all(
    Array.from({ length: 6 }, () => post('/v1/sessions', key, 'race', { channel: 'email_otp' })),
  );
  expect(await countRows(t.app, 'challenge_session', 'account_id = ?', [account])).toBe(1);
  const created = answers.filter((a) => a.status === 201);
  expect(created.length).toBeGreaterThanOrEqual(1);
  expect(new Set(created.map((a) => a.body.session_id)).size).toBe(1);
  for (const answer of answers.filter((a) => a.status !== 201)) {
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe('idempotency_request_in_progress');
    expect(answer.headers.get('retry-after')).toBe('1');
  }
  const later = await post('/v1/sessions', key, 'race', { channel: 'email_otp' });
  expect(later.body.session_id).toBe(created[0]!.body.session_id);
});

test('keys are per credential, a failed request frees its key, and a key lapses after 24 h', async () => {
  const account = await newAccount(t);
  const one = await apiKey(t, account);
  const two = await apiKey(t, account);
  const a = await post('/v1/sessions', one, 'shared', { channel: 'email_otp' });
  const b = await post('/v1/sessions', two, 'shared', { channel: 'email_otp' });
  expect(b.body.session_id).not.toBe(a.body.session_id);

  // A refused request (unsupported target) is not remembered: the same key may run again.
  const refused = await post('/v1/sessions', one, 'retry-me', { target: 'paypal.com' });
  expect(refused.status).toBe(422);
  expect(refused.body.code).toBe('unsupported_target');
  expect((await post('/v1/sessions', one, 'retry-me', { channel: 'email_otp' })).status).toBe(201);

  const clock = new TestClock();
  clock.advance(24 * 3600 + 1);
  t.app.challenges.clock = clock.now;
  try {
    const fresh = await post('/v1/sessions', one, 'shared', { channel: 'email_otp' });
    expect(fresh.status).toBe(201);
    expect(fresh.body.session_id).not.toBe(a.body.session_id);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
  } finally {
    t.app.challenges.clock = () => new Date();
  }
});

test('POST /v1/webhooks replays the endpoint and its secret (sealed at rest) and creates one endpoint', async () => {
  const account = await newAccount(t);
  const key = await apiKey(t, account);
  const body = { url: 'http://127.0.0.1:9/hook', events: ['session.verdict'] };
  const first = await post('/v1/webhooks', key, 'hook-1', body);
  expect(first.status).toBe(201);
  const again = await post('/v1/webhooks', key, 'hook-1', body);
  expect(again.body).toEqual(first.body);
  expect(await countRows(t.app, 'webhook_endpoint', 'account_id = ?', [account])).toBe(1);
  const [stored] = await t.app.db.orm.em
    .fork()
    .execute<{ response: Buffer }[]>('select response from idempotency_key where key = ?', [
      'hook-1',
    ]);
  expect(stored!.response.toString('latin1')).not.toContain(first.body.secret);
  const reused = await post('/v1/webhooks', key, 'hook-1', { url: 'http://127.0.0.1:9/other' });
  expect(reused.body.code).toBe('idempotency_key_reused');
});

test('POST /v1/sessions/:id/reroute honours the key: one reroute, billed once', async () => {
  const account = await newAccount(t);
  const key = await apiKey(t, account);
  const opened = await post('/v1/sessions', key, null, { channel: 'sms_otp' });
  const path = `/v1/sessions/${opened.body.session_id}/reroute`;
  const first = await post(path, key, 'reroute-1', {});
  expect(first.status).toBe(200);
  const again = await post(path, key, 'reroute-1', {});
  expect(again.body).toEqual(first.body);
  expect(await countRows(t.app, 'usage_event', 'account_id = ?', [account])).toBe(2);
});

test('a malformed Idempotency-Key is a 400 invalid_request', async () => {
  const key = await apiKey(t, await newAccount(t));
  const answer = await post('/v1/sessions', key, 'x'.repeat(256), { channel: 'email_otp' });
  expect(answer.status).toBe(400);
  expect(answer.body.code).toBe('invalid_request');
});
