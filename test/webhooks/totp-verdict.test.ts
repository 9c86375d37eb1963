/**
 * Issue 20: a `totp` verdict reaches customer webhooks like the others. A real receiver verifying
 * with the stock `standardwebhooks` library gets a signed `session.verdict` for a totp session,
 * written to the outbox in the transaction that claims the time step (so a step that rolled back
 * is never announced), with `valid_until` and without the code or the authenticator's secret.
 * The app's clock is a TestClock: no wait holds for a real 30 s step.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import type { ChallengeDeps } from '../../src/domain/context.ts';
import type { TestApp } from '../helpers/app.ts';
import { countRows, startChallengeApp, TestClock } from '../helpers/challenges.ts';
import { rest } from '../helpers/faces.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';
import { eventually, type Receiver, startReceiver } from '../helpers/webhook-receiver.ts';

const SECRET = 'KRSXG5CTMVRXEZLUKN2XAZLSKNSWG4TF';

let t: TestApp;
let receiver: Receiver;
let key: string;
let real: Pick<ChallengeDeps, 'clock' | 'after'>;

beforeAll(async () => {
  t = await startChallengeApp({
    env: { WEBHOOK_ALLOW_PRIVATE: 'true', FREE_TIER_MONTHLY_SESSIONS: '10000' },
  });
  real = { clock: t.app.challenges.clock, after: t.app.challenges.after };
});
afterAll(() => t?.stop());
beforeEach(async () => {
  receiver = await startReceiver();
  key = await apiKey(t, await newAccount(t));
  // 1 s into a 30 s step of a clock that moves only when a wait holds for the next step.
  const clock = new TestClock(new Date(Math.ceil(Date.now() / 30_000) * 30_000 + 1_000));
  Object.assign(t.app.challenges, { clock: clock.now, after: clock.after });
});
afterEach(async () => {
  Object.assign(t.app.challenges, real);
  await receiver.close();
});

async function totpSession(target: string) {
  const stored = await rest(t, 'POST', '/v1/authenticators', key, { target, secret: SECRET });
  expect(stored.status).toBe(201);
  const opened = await rest(t, 'POST', '/v1/sessions', key, { channel: 'totp', target });
  expect(opened.status).toBe(201);
  return opened.body.session_id as string;
}

test('a receiver using the stock standardwebhooks verifier gets a signed session.verdict for a totp code, with valid_until and without the code or secret', async () => {
  const endpoint = await rest(t, 'POST', '/v1/webhooks', key, {
    url: receiver.url,
    events: ['session.verdict'],
  });
  expect(endpoint.status).toBe(201);
  const sessionId = await totpSession('acme.example');
  const waited = await rest(t, 'POST', `/v1/sessions/${sessionId}/wait`, key, { timeout: 60 });
  expect(waited.status).toBe(200);
  expect(waited.body.verdict).toBe('otp_code');

  const [request] = await receiver.next(1);
  // The stock verifier checks the signature, and its timestamp is within 5 minutes of real time.
  const event = new Webhook(endpoint.body.secret).verify(request!.body, request!.headers) as {
    type: string;
    data: Record<string, unknown>;
  };
  expect(event).toMatchObject({
    type: 'session.verdict',
    data: {
      session_id: sessionId,
      channel: 'totp',
      verdict: 'otp_code',
      received_at: waited.body.received_at,
      valid_until: waited.body.valid_until,
    },
  });
  expect(event.data).not.toHaveProperty('otp_code');
  expect(request!.body).not.toContain(waited.body.otp_code);
  expect(request!.body).not.toContain(SECRET);
  expect(request!.body.toLowerCase()).not.toContain(SECRET.toLowerCase());
  // The worker records the 2xx just after the receiver answered.
  const delivered = await eventually(async () => {
    const listed = await rest(t, 'GET', `/v1/webhooks/${endpoint.body.id}/deliveries`, key);
    const [delivery] = listed.body.deliveries as { event_type: string; status: string }[];
    return delivery?.status === 'delivered' && delivery;
  });
  expect(delivered.event_type).toBe('session.verdict');
});

test('each code handed out is one outbox row; a wait that gets no step writes none', async () => {
  const endpoint = await rest(t, 'POST', '/v1/webhooks', key, {
    url: receiver.url,
    events: ['session.verdict'],
  });
  expect(endpoint.status).toBe(201);
  const sessionId = await totpSession('two.example');
  const outbox = () =>
    countRows(t.app, 'webhook_delivery', "endpoint_id = ? and event_type = 'session.verdict'", [
      endpoint.body.id,
    ]);
  // The first wait is served at once (29 s left in the step): one row.
  await rest(t, 'POST', `/v1/sessions/${sessionId}/wait`, key, { timeout: 60 });
  expect(await outbox()).toBe(1);
  // A second session in the same step has nothing to serve within a 1 s timeout: no row.
  const other = await rest(t, 'POST', '/v1/sessions', key, {
    channel: 'totp',
    target: 'two.example',
  });
  const none = await rest(t, 'POST', `/v1/sessions/${other.body.session_id}/wait`, key, {
    timeout: 1,
  });
  expect(none.body.verdict).toBe('timeout');
  expect(await outbox()).toBe(1);
  await receiver.next(1);
});
