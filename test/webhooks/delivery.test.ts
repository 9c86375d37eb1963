/**
 * Customer webhooks end to end on the real service: a receiver verifying with the stock
 * `standardwebhooks` library, messages fed through the real Twilio ingest path, retries moved by
 * the injected clock, filters, test events, deletion, scopes and tenancy.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { expireDueSessions } from '../../src/domain/sessions/expire.ts';
import type { TestApp } from '../helpers/app.ts';
import {
  countRows,
  ctxOf,
  postTwilio,
  startChallengeApp,
  TestClock,
} from '../helpers/challenges.ts';
import { rest } from '../helpers/faces.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';
import { eventually, type Receiver, startReceiver } from '../helpers/webhook-receiver.ts';

let t: TestApp;
let receiver: Receiver;
let key: string;
const realClock = () => new Date();

beforeAll(async () => {
  t = await startChallengeApp({
    env: { WEBHOOK_ALLOW_PRIVATE: 'true', FREE_TIER_MONTHLY_SESSIONS: '10000' },
  });
});
afterAll(() => t?.stop());
// Each test has a receiver of its own: a retry left over from another test can never land here.
beforeEach(async () => {
  t.app.challenges.clock = realClock;
  receiver = await startReceiver();
  key = await apiKey(t, await newAccount(t));
});
afterEach(() => receiver.close());

async function addEndpoint(body: Record<string, unknown> = {}, using = key) {
  const created = await rest(t, 'POST', '/v1/webhooks', using, { url: receiver.url, ...body });
  expect(created.status).toBe(201);
  return created.body as { id: string; secret: string; url: string; events: string[] | null };
}

const verify = (secret: string, request: { headers: Record<string, string>; body: string }) =>
  new Webhook(secret).verify(request.body, request.headers) as {
    type: string;
    timestamp: string;
    data: Record<string, unknown>;
  };

/**
 * The signature check alone, with the stock library's own signing, for requests stamped by a
 * moved clock (its verify() also refuses timestamps more than 5 minutes from the real time).
 */
function signedBy(secret: string, request: { headers: Record<string, string>; body: string }) {
  const expected = new Webhook(secret).sign(
    request.headers['webhook-id']!,
    new Date(Number(request.headers['webhook-timestamp']) * 1000),
    request.body,
  );
  return request.headers['webhook-signature']!.split(' ').includes(expected);
}

async function deliveries(endpointId: string, using = key) {
  const answer = await rest(t, 'GET', `/v1/webhooks/${endpointId}/deliveries`, using);
  expect(answer.status).toBe(200);
  return answer.body.deliveries as {
    id: string;
    event_type: string;
    status: string;
    attempts: number;
    last_status_code: number | null;
    next_attempt_at: string | null;
  }[];
}

describe('delivery', () => {
  test('a receiver using the stock standardwebhooks verifier gets a signed session.verdict within 1 s of the message, and the code is not consumed', async () => {
    const endpoint = await addEndpoint({ events: ['session.verdict'] });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const session = await rest(t, 'POST', '/v1/sessions', key, { channel: 'sms_otp' });
    expect(session.status).toBe(201);

    const sent = Date.now();
    const twilio = await postTwilio(t.baseUrl, {
      to: session.body.number,
      from: '+14155550123',
      body: 'Your Acme code is 834261. Do not share it.',
    });
    expect(twilio.status).toBe(200);
    const [request] = await receiver.next(1);
    expect(request!.at - sent).toBeLessThan(1000);

    const event = verify(endpoint.secret, request!);
    expect(event.type).toBe('session.verdict');
    expect(event.data).toMatchObject({
      session_id: session.body.session_id,
      channel: 'sms_otp',
      verdict: 'otp_code',
      otp_code: '834261',
      from_number: '+14155550123',
    });
    expect(new Date(event.data.received_at as string).toISOString()).toBe(event.data.received_at);
    expect(request!.headers['webhook-id']).toMatch(/^whd_/);

    // Delivering the webhook did not consume the code: the agent's wait still gets it.
    const waited = await rest(t, 'POST', `/v1/sessions/${session.body.session_id}/wait`, key, {
      timeout: 0,
    });
    expect(waited.body).toMatchObject({ verdict: 'otp_code', otp_code: '834261' });
  });

  test('a 500 is retried after 5 s (injected clock) with the same webhook-id, then recorded as delivered', async () => {
    const clock = new TestClock();
    t.app.challenges.clock = clock.now;
    const endpoint = await addEndpoint();
    receiver.answer = (_request, index) => (index === 0 ? 500 : 200);
    const test = await rest(t, 'POST', `/v1/webhooks/${endpoint.id}/test`, key);
    expect(test.status).toBe(202);

    const [first] = await receiver.next(1);
    const pending = await eventually(async () => {
      const [row] = await deliveries(endpoint.id);
      return row?.attempts === 1 && row.last_status_code === 500 && row;
    });
    expect(pending).toMatchObject({ status: 'pending', event_type: 'webhook.test' });
    expect(new Date(pending.next_attempt_at!).getTime()).toBe(clock.now().getTime() + 5000);

    // Not before its time: 4 s later the worker still leaves it alone.
    clock.advance(4);
    await t.app.challenges.webhooks.flush();
    expect(receiver.received).toHaveLength(1);
    clock.advance(1);
    const [, second] = await receiver.next(2);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(verify(endpoint.secret, second!).type).toBe('webhook.test');
    const done = await eventually(async () => {
      const [row] = await deliveries(endpoint.id);
      return row?.status === 'delivered' && row;
    });
    expect(done).toMatchObject({ attempts: 2, last_status_code: 200, next_attempt_at: null });
  });

  test('after every retry of the schedule fails, the delivery is failed (8 attempts: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h)', async () => {
    const clock = new TestClock();
    t.app.challenges.clock = clock.now;
    const endpoint = await addEndpoint();
    receiver.answer = 503;
    await rest(t, 'POST', `/v1/webhooks/${endpoint.id}/test`, key);
    const delays = [5, 300, 1800, 7200, 18_000, 36_000, 36_000];
    for (let attempt = 1; attempt <= 8; attempt++) {
      await receiver.next(attempt);
      // The attempt's outcome is recorded once the worker has nothing in flight.
      await t.app.challenges.webhooks.flush();
      const [row] = await deliveries(endpoint.id);
      expect(row).toMatchObject({ attempts: attempt, last_status_code: 503 });
      if (!row) return;
      if (attempt < 8) {
        expect(row.status).toBe('pending');
        expect(new Date(row.next_attempt_at!).getTime()).toBe(
          clock.now().getTime() + delays[attempt - 1]! * 1000,
        );
        clock.advance(delays[attempt - 1]!);
      } else {
        expect(row).toMatchObject({ status: 'failed', next_attempt_at: null });
      }
    }
    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
  });

  test('an endpoint failing for 5 days is disabled, receives nothing more, and a re-send enables it again', async () => {
    const clock = new TestClock();
    t.app.challenges.clock = clock.now;
    const endpoint = await addEndpoint();
    receiver.answer = 500;
    await rest(t, 'POST', `/v1/webhooks/${endpoint.id}/test`, key);
    await receiver.next(1);
    await t.app.challenges.webhooks.flush();
    let [listed] = (await rest(t, 'GET', '/v1/webhooks', key)).body.webhooks;
    expect(listed.failing_since).toBe(clock.now().toISOString());
    expect(listed.disabled_at).toBeNull();

    clock.advance(5 * 24 * 3600 + 1);
    const second = await rest(t, 'POST', `/v1/webhooks/${endpoint.id}/test`, key);
    await eventually(async () => {
      [listed] = (await rest(t, 'GET', '/v1/webhooks', key)).body.webhooks;
      return listed.disabled_at !== null;
    });
    expect(listed.disabled_at).toBe(clock.now().toISOString());
    await t.app.challenges.webhooks.flush();
    const before = receiver.received.length;

    // Disabled: a new event is queued but not sent, even when due.
    receiver.answer = 200;
    await rest(t, 'POST', `/v1/webhooks/${endpoint.id}/test`, key);
    await t.app.challenges.webhooks.flush();
    expect(receiver.received).toHaveLength(before);

    // Re-sending one delivery says "the receiver is back": the endpoint is enabled again.
    const retried = await rest(
      t,
      'POST',
      `/v1/webhooks/${endpoint.id}/deliveries/${second.body.id}/retry`,
      key,
    );
    expect(retried.status).toBe(202);
    await receiver.next(before + 1);
    [listed] = (await rest(t, 'GET', '/v1/webhooks', key)).body.webhooks;
    expect(listed.disabled_at).toBeNull();
  });

  test('a rotated secret keeps signing beside the new one for 24 h; after that only the new one verifies', async () => {
    const clock = new TestClock();
    t.app.challenges.clock = clock.now;
    const endpoint = await addEndpoint();
    const rotated = await rest(t, 'POST', `/v1/webhooks/${endpoint.id}/rotate-secret`, key);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    expect(rotated.body.previous_secret_expires_at).toBe(
      new Date(clock.now().getTime() + 24 * 3600 * 1000).toISOString(),
    );

    await rest(t, 'POST', `/v1/webhooks/${endpoint.id}/test`, key);
    const [during] = await receiver.next(1);
    expect(during!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verify(rotated.body.secret, during!).type).toBe('webhook.test');
    expect(verify(endpoint.secret, during!).type).toBe('webhook.test');

    clock.advance(24 * 3600 + 1);
    await rest(t, 'POST', `/v1/webhooks/${endpoint.id}/test`, key);
    const [, after] = await receiver.next(2);
    expect(after!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
    // The stock library signs as we would expect: only the new secret's signature is sent.
    const expected = (secret: string) =>
      new Webhook(secret).sign(
        after!.headers['webhook-id']!,
        new Date(Number(after!.headers['webhook-timestamp']) * 1000),
        after!.body,
      );
    expect(after!.headers['webhook-signature']).toBe(expected(rotated.body.secret));
    expect(after!.headers['webhook-signature']).not.toContain(expected(endpoint.secret).slice(3));
  });
});

describe('what is sent where', () => {
  test('an endpoint gets only the event types it subscribed to; without a filter it gets every one', async () => {
    const clock = new TestClock();
    t.app.challenges.clock = clock.now;
    const openedOnly = await addEndpoint({ events: ['session.opened'] });
    const all = await addEndpoint();
    const first = await rest(t, 'POST', '/v1/sessions', key, { channel: 'email_otp' });
    const closed = await rest(t, 'DELETE', `/v1/sessions/${first.body.session_id}`, key);
    expect(closed.status).toBe(200);
    await rest(t, 'POST', '/v1/sessions', key, { channel: 'magic_link' });
    // Sent before the clock jumps (a jump past a live lease would look like a dead sender).
    await t.app.challenges.webhooks.flush();
    clock.advance(3600);
    expect(await expireDueSessions(ctxOf(t.app, clock))).toBeGreaterThan(0);

    const types = async (id: string) => (await deliveries(id)).map((d) => d.event_type).sort();
    expect(await types(openedOnly.id)).toEqual(['session.opened', 'session.opened']);
    expect(await types(all.id)).toEqual([
      'session.closed',
      'session.expired',
      'session.opened',
      'session.opened',
    ]);
    await receiver.next(6);
    // Every request verifies with the secret of the endpoint it was meant for.
    const events = receiver.received.map((r) => {
      const to = signedBy(all.secret, r) ? 'all' : signedBy(openedOnly.secret, r) && 'openedOnly';
      expect(to).toBeTruthy();
      return { to, ...(JSON.parse(r.body) as { type: string; data: Record<string, unknown> }) };
    });
    expect(events.filter((e) => e.to === 'openedOnly').map((e) => e.type)).toEqual([
      'session.opened',
      'session.opened',
    ]);
    expect(events.find((e) => e.type === 'session.closed')?.data).toEqual({
      session_id: first.body.session_id,
      channel: 'email_otp',
      ended_at: expect.any(String),
    });
    expect(events.find((e) => e.type === 'session.opened')?.data).toMatchObject({
      channel: expect.any(String),
      inbox_address: expect.stringContaining('@'),
    });
  });

  test('a test event reaches the endpoint whatever it subscribed to, signed like any other', async () => {
    const endpoint = await addEndpoint({ events: ['agent.revoked'] });
    const sent = await rest(t, 'POST', `/v1/webhooks/${endpoint.id}/test`, key);
    expect(sent.status).toBe(202);
    expect(sent.body).toMatchObject({ event_type: 'webhook.test', status: 'pending' });
    const [request] = await receiver.next(1);
    const event = verify(endpoint.secret, request!);
    expect(event).toMatchObject({ type: 'webhook.test', data: { endpoint_id: endpoint.id } });
    expect(request!.headers['webhook-id']).toBe(sent.body.id);
  });

  test('a deleted endpoint is gone: 404 on its routes, and later events queue nothing for it', async () => {
    const endpoint = await addEndpoint();
    expect((await rest(t, 'DELETE', `/v1/webhooks/${endpoint.id}`, key)).status).toBe(204);
    expect((await rest(t, 'GET', '/v1/webhooks', key)).body.webhooks).toEqual([]);
    const gone = await rest(t, 'GET', `/v1/webhooks/${endpoint.id}/deliveries`, key);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('not_found');
    await rest(t, 'POST', '/v1/sessions', key, { channel: 'email_otp' });
    expect(await countRows(t.app, 'webhook_delivery', 'endpoint_id = ?', [endpoint.id])).toBe(0);
    expect((await rest(t, 'DELETE', `/v1/webhooks/${endpoint.id}`, key)).status).toBe(404);
  });

  test("another account's endpoint and deliveries answer 404, exactly like missing ones, and it never hears this account's events", async () => {
    const endpoint = await addEndpoint();
    const sent = await rest(t, 'POST', `/v1/webhooks/${endpoint.id}/test`, key);
    const other = await apiKey(t, await newAccount(t));
    const otherEndpoint = await addEndpoint({}, other);
    for (const [method, path] of [
      ['DELETE', `/v1/webhooks/${endpoint.id}`],
      ['POST', `/v1/webhooks/${endpoint.id}/test`],
      ['POST', `/v1/webhooks/${endpoint.id}/rotate-secret`],
      ['GET', `/v1/webhooks/${endpoint.id}/deliveries`],
      ['POST', `/v1/webhooks/${endpoint.id}/deliveries/${sent.body.id}/retry`],
      ['POST', `/v1/webhooks/${otherEndpoint.id}/deliveries/${sent.body.id}/retry`],
    ] as const) {
      const answer = await rest(t, method, path, other);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(answer.body.code).toBe('not_found');
    }
    expect(
      (await rest(t, 'GET', '/v1/webhooks', other)).body.webhooks.map((w: { id: string }) => w.id),
    ).toEqual([otherEndpoint.id]);
    await rest(t, 'POST', '/v1/sessions', key, { channel: 'email_otp' });
    expect(await deliveries(otherEndpoint.id, other)).toEqual([]);
  });

  test('webhook routes need webhooks:manage: without it, 403 insufficient_scope naming the scope', async () => {
    const account = await newAccount(t);
    const narrow = await apiKey(t, account, ['sessions:write', 'sessions:read', 'keys:manage']);
    const answer = await rest(t, 'POST', '/v1/webhooks', narrow, { url: receiver.url });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('insufficient_scope');
    expect(answer.headers.get('www-authenticate')).toContain('scope="webhooks:manage"');
    expect(await countRows(t.app, 'webhook_endpoint', 'account_id = ?', [account])).toBe(0);
  });

  test('bad endpoint input gets a clear 400, never a 500', async () => {
    for (const body of [
      { url: 'not a url' },
      { url: receiver.url, events: ['session.bogus'] },
      { url: receiver.url, events: [] },
      { url: `${receiver.url}#frag` },
      { url: 'http://user:pass@127.0.0.1/hook' },
      {},
    ]) {
      const answer = await rest(t, 'POST', '/v1/webhooks', key, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe('invalid_request');
    }
  });
});

describe('isolation', () => {
  test('a hung receiver with hundreds of queued deliveries holds at most 4 attempts and never delays another endpoint', async () => {
    const hung = await startReceiver();
    hung.answer = 'hold';
    try {
      const slow = await addEndpoint({ url: hung.url });
      const fine = await addEndpoint();
      // 300 deliveries due for the hung endpoint, all older than the next event.
      await t.app.db.orm.em.fork().execute(
        `insert into webhook_delivery (id, created_at, updated_at, endpoint_id, account_id,
           event_type, data, status, attempts, next_attempt_at)
         select 'whd_flood_' || g, now(), now(), e.id, e.account_id, 'webhook.test', '{}',
           'pending', 0, now() - interval '1 minute'
         from webhook_endpoint e, generate_series(1, 300) g where e.id = ?`,
        [slow.id],
      );
      t.app.challenges.webhooks.wake();
      await hung.next(4);
      const sent = await rest(t, 'POST', `/v1/webhooks/${fine.id}/test`, key);
      const [request] = await receiver.next(1);
      expect(request!.headers['webhook-id']).toBe(sent.body.id);
      expect(hung.received).toHaveLength(4);
    } finally {
      await hung.close();
    }
  });
});

describe('observability', () => {
  test('/metrics counts deliveries by outcome, times them, and reports the queue depth', async () => {
    const endpoint = await addEndpoint();
    receiver.answer = (_request, index) => (index === 0 ? 500 : 200);
    await rest(t, 'POST', `/v1/webhooks/${endpoint.id}/test`, key);
    await rest(t, 'POST', `/v1/webhooks/${endpoint.id}/test`, key);
    await receiver.next(2);
    await t.app.challenges.webhooks.flush();
    const metrics = await (await fetch(`${t.baseUrl}/metrics`)).text();
    const value = (pattern: RegExp) => Number(metrics.match(pattern)?.[1] ?? Number.NaN);
    expect(
      value(/^latchkey_webhook_deliveries_total\{outcome="delivered"\} (\d+)/m),
    ).toBeGreaterThan(0);
    expect(
      value(/^latchkey_webhook_deliveries_total\{outcome="http_error"\} (\d+)/m),
    ).toBeGreaterThan(0);
    expect(value(/^latchkey_webhook_delivery_latency_seconds_count (\d+)/m)).toBeGreaterThan(0);
    // The 500 left one delivery waiting for its retry in 5 s.
    expect(value(/^latchkey_webhook_queue_depth (\d+)/m)).toBeGreaterThanOrEqual(1);
  });
});
