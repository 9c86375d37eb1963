/**
 * Issue 13: the TypeScript SDK (sdks/typescript) against the real service in-process: every method
 * and alias, waits that time out and chain, paging, 401/403/429, idempotent opens, redirects,
 * credentials from the environment, and webhook verification against the stock standardwebhooks
 * library. Onboarding and the packed tarball have files of their own.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import {
  Latchkey,
  LatchkeyError,
  OtpTimeoutError,
  verifyWebhook,
} from '../../sdks/typescript/src/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

let t: TestApp;
let key: string;
let client: Latchkey;
beforeAll(async () => {
  t = await startTestApp({
    env: { WEBHOOK_ALLOW_PRIVATE: 'true', FREE_TIER_MONTHLY_SESSIONS: '10000' },
  });
  key = await apiKey(t, await newAccount(t));
  client = new Latchkey({ apiKey: key, baseUrl: t.baseUrl });
});
afterAll(() => t?.stop());

const sendSms = async (to: string, body: string, using = key) => {
  const response = await fetch(`${t.baseUrl}/v1/synthetic/sms`, {
    method: 'POST',
    headers: { 'x-api-key': using, 'content-type': 'application/json' },
    body: JSON.stringify({ to, from: '+15550009999', body }),
  });
  expect(response.status).toBe(201);
};

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
};

describe('sessions', () => {
  test('provision opens an sms_otp session and waitForVerdict returns the code of the SMS that arrives', async () => {
    const session = await client.provision({ target: 'example.com' });
    expect(session).toMatchObject({ channel: 'sms_otp', state: 'active', target: 'example.com' });
    expect(session.number).toMatch(/^\+1\d{10}$/);
    await sendSms(session.number!, 'Your example.com code is 482913');
    const verdict = await client.waitForVerdict(session.session_id, { timeout: 10 });
    expect(verdict).toMatchObject({ verdict: 'otp_code', otp_code: '482913' });
  });

  test('waitForOtp is the same wait, and openChallenge opens the channel asked for', async () => {
    const email = await client.openChallenge({ channel: 'email_otp' });
    expect(email.channel).toBe('email_otp');
    expect(email.inbox_address).toContain('@');
    const sms = await client.openChallenge();
    await sendSms(sms.number!, 'Code: 771204');
    expect((await client.waitForOtp(sms.session_id, { timeout: 10 })).otp_code).toBe('771204');
  });

  test('getSession, getMessages, reroute and closeSession act on the session', async () => {
    const session = await client.provision();
    expect((await client.getSession(session.session_id)).session_id).toBe(session.session_id);
    await sendSms(session.number!, 'Your code is 130577');
    const messages = await client.getMessages(session.session_id);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.parsed?.otp_code).toBe('130577');
    const moved = await client.reroute(session.session_id);
    expect(moved.previous_number).toBe(session.number);
    expect(moved.number).not.toBe(session.number);
    expect(moved.reroute_count).toBe(1);
    const closed = await client.closeSession(session.session_id);
    expect(closed.status).toBe('completed');
    expect((await client.getSession(session.session_id)).state).toBe('completed');
  });

  test('a wait that ends without a verdict raises OtpTimeoutError with the session id and next step', async () => {
    const session = await client.provision();
    const error = await failure(client.waitForVerdict(session.session_id, { timeout: 0 }));
    expect(error).toBeInstanceOf(OtpTimeoutError);
    expect((error as OtpTimeoutError).sessionId).toBe(session.session_id);
    expect((error as OtpTimeoutError).nextStep.length).toBeGreaterThan(0);
    expect((error as OtpTimeoutError).rerouted).toBeUndefined();
    // The timeout moved nothing: the session keeps its number.
    expect((await client.getSession(session.session_id)).number).toBe(session.number);
  });

  test('with autoReroute a timed-out SMS wait moves the session to a new number and says so', async () => {
    const session = await client.provision();
    const error = (await failure(
      client.waitForOtp(session.session_id, { timeout: 0, autoReroute: true }),
    )) as OtpTimeoutError;
    expect(error).toBeInstanceOf(OtpTimeoutError);
    expect(error.rerouted).toMatchObject({
      status: 'carrier_retry_required',
      sessionId: session.session_id,
      previousNumber: session.number,
    });
    const now = await client.getSession(session.session_id);
    expect(now.number).toBe(error.rerouted!.newNumber);
    expect(now.number).not.toBe(session.number);
  });

  test("a wait longer than the service's limit is chained over several requests", async () => {
    const waits: number[] = [];
    const observed: typeof fetch = async (input, init) => {
      if (String(input).endsWith('/wait')) waits.push(JSON.parse(String(init?.body)).timeout);
      return fetch(input, init);
    };
    // waitLimit stands for the service's 300 s so the chain is seen in a second or two.
    const chained = new Latchkey({
      apiKey: key,
      baseUrl: t.baseUrl,
      fetch: observed,
      waitLimit: 1,
    });
    const session = await chained.provision();
    const error = await failure(chained.waitForVerdict(session.session_id, { timeout: 2.5 }));
    expect(error).toBeInstanceOf(OtpTimeoutError);
    expect(waits.length).toBeGreaterThanOrEqual(3);
    expect(waits.every((w) => w <= 1)).toBe(true);

    waits.length = 0;
    const pending = chained.waitForVerdict(session.session_id, { timeout: 30 });
    await vi.waitFor(() => expect(waits.length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    await sendSms(session.number!, 'Your code is 661100');
    expect((await pending).otp_code).toBe('661100');
  });

  test('listSessions iterates every page', async () => {
    const accountKey = await apiKey(t, await newAccount(t));
    const fresh = new Latchkey({ apiKey: accountKey, baseUrl: t.baseUrl });
    const opened: string[] = [];
    for (let i = 0; i < 5; i++)
      opened.push((await fresh.openChallenge({ channel: 'email_otp' })).session_id);
    const pages: string[] = [];
    const observed: typeof fetch = async (input, init) => {
      if (new URL(String(input)).pathname === '/v1/sessions') pages.push(String(input));
      return fetch(input, init);
    };
    const listed: string[] = [];
    const lister = new Latchkey({
      apiKey: accountKey,
      baseUrl: t.baseUrl,
      fetch: observed,
    });
    for await (const s of lister.listSessions({ pageSize: 2 })) listed.push(s.session_id);
    expect(listed).toEqual(opened);
    expect(pages).toHaveLength(3);
  });
});

describe('usage, API keys and webhooks', () => {
  test('usage and usageSummary report the billed sessions', async () => {
    const accountKey = await apiKey(t, await newAccount(t));
    const own = new Latchkey({ apiKey: accountKey, baseUrl: t.baseUrl });
    const opened = await own.openChallenge({ channel: 'email_otp' });
    const usage = await own.usage();
    expect(usage.usage).toHaveLength(1);
    expect(usage.usage[0]).toMatchObject({ session_id: opened.session_id, channel: 'email_otp' });
    expect(usage.has_more).toBe(false);
    expect(await own.usageSummary()).toMatchObject({ sessions_used: 1 });
  });

  test('apiKeys.create, list and delete manage the account keys', async () => {
    const created = await client.apiKeys.create({ name: 'sdk made', scopes: ['sessions:read'] });
    expect(created.key).toMatch(/^lk_/);
    expect((await client.apiKeys.list()).map((k) => k.name)).toContain('sdk made');
    await client.apiKeys.delete(created.id);
    expect((await client.apiKeys.list()).map((k) => k.id)).not.toContain(created.id);
    const gone = new Latchkey({ apiKey: created.key, baseUrl: t.baseUrl });
    expect(await failure(gone.getSession('x'))).toMatchObject({
      status: 401,
      code: 'unauthenticated',
    });
  });

  test('webhooks.create, list and delete manage the endpoints; the secret verifies a signed body', async () => {
    const created = await client.webhooks.create({ url: 'http://127.0.0.1:9/hook' });
    expect(created.secret).toMatch(/^whsec_/);
    expect((await client.webhooks.list()).map((w) => w.id)).toContain(created.id);
    await client.webhooks.delete(created.id);
    expect((await client.webhooks.list()).map((w) => w.id)).not.toContain(created.id);
  });
});

describe('errors and retries', () => {
  test('a wrong key is LatchkeyError 401 unauthenticated; a key without the scope is 403 insufficient_scope', async () => {
    const wrong = new Latchkey({ apiKey: 'lk_not_a_key', baseUrl: t.baseUrl });
    const error = await failure(wrong.openChallenge());
    expect(error).toBeInstanceOf(LatchkeyError);
    expect(error).toMatchObject({ status: 401, code: 'unauthenticated' });
    const reader = new Latchkey({
      apiKey: await apiKey(t, await newAccount(t), ['sessions:read']),
      baseUrl: t.baseUrl,
    });
    expect(await failure(reader.openChallenge())).toMatchObject({
      status: 403,
      code: 'insufficient_scope',
    });
  });

  test('a 429 is retried after Retry-After, and without retries it surfaces with retryAfter', async () => {
    const accountKey = await apiKey(t, await newAccount(t));
    const full = new Latchkey({ apiKey: accountKey, baseUrl: t.baseUrl, maxRetries: 0 });
    const held: string[] = [];
    for (let i = 0; i < 50; i++)
      held.push((await full.openChallenge({ channel: 'email_otp' })).session_id);
    const refused = (await failure(full.openChallenge({ channel: 'email_otp' }))) as LatchkeyError;
    expect(refused).toMatchObject({ status: 429, code: 'session_limit_reached' });
    expect(refused.retryAfter).toBeGreaterThan(0);

    // The injected pause stands for the Retry-After wait; meanwhile a session is closed, so the
    // retried open fits.
    const pauses: number[] = [];
    const patient = new Latchkey({
      apiKey: accountKey,
      baseUrl: t.baseUrl,
      maxRetryAfter: 3600,
      sleep: async (ms) => {
        pauses.push(ms);
        await full.closeSession(held.pop()!);
      },
    });
    const opened = await patient.openChallenge({ channel: 'email_otp' });
    expect(opened.state).toBe('active');
    // Retry-After counts down to the soonest expiry, so the second 429 may ask a second less.
    expect(pauses).toHaveLength(1);
    expect(pauses[0]).toBeGreaterThan(0);
    expect(pauses[0]).toBeLessThanOrEqual(refused.retryAfter! * 1000);
  });

  test('an open whose answer is lost is retried with the same Idempotency-Key and billed once', async () => {
    const accountKey = await apiKey(t, await newAccount(t));
    const keys: string[] = [];
    let lose = true;
    const lossy: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === 'POST') keys.push(new Headers(init.headers).get('idempotency-key')!);
      if (lose && init?.method === 'POST') {
        lose = false;
        await response.body?.cancel();
        throw new TypeError('fetch failed'); // the answer is lost on the way back
      }
      return response;
    };
    const own = new Latchkey({ apiKey: accountKey, baseUrl: t.baseUrl, fetch: lossy });
    const session = await own.openChallenge({ channel: 'email_otp' });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(await own.usageSummary()).toMatchObject({ sessions_used: 1 });
    expect((await own.usage()).usage.map((e) => e.session_id)).toEqual([session.session_id]);
  });

  test('a redirect is not followed, so the API key never reaches another host', async () => {
    const seen: (string | undefined)[] = [];
    const elsewhere = http.createServer((req, res) => {
      seen.push(req.headers['x-api-key'] as string | undefined);
      res.end('{}');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    const redirector = http.createServer((req, res) => {
      res.writeHead(307, { location: `${target}${req.url}` }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const misled = new Latchkey({
        apiKey: key,
        baseUrl: `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`,
      });
      expect(await failure(misled.openChallenge())).toMatchObject({
        status: 307,
        code: 'unexpected_redirect',
      });
      expect(seen).toEqual([]);
    } finally {
      elsewhere.close();
      redirector.close();
    }
  });

  test('with no arguments the key comes from SERVICE_API_KEY and the base URL from LATCHKEY_BASE_URL', async () => {
    vi.stubEnv('SERVICE_API_KEY', key);
    vi.stubEnv('LATCHKEY_BASE_URL', t.baseUrl);
    try {
      const fromEnv = new Latchkey();
      expect(fromEnv.baseUrl).toBe(t.baseUrl);
      expect((await fromEnv.openChallenge({ channel: 'email_otp' })).state).toBe('active');
    } finally {
      vi.unstubAllEnvs();
    }
    vi.stubEnv('SERVICE_API_KEY', '');
    try {
      expect(() => new Latchkey({ baseUrl: t.baseUrl })).toThrow(/SERVICE_API_KEY/);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  test('a base URL that is plain http off loopback is warned about once, without the key', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      new Latchkey({ apiKey: 'lk_secret_value', baseUrl: 'http://latchkey.example.test' });
      new Latchkey({ apiKey: 'lk_secret_value', baseUrl: 'http://latchkey.example.test' });
      new Latchkey({ apiKey: 'lk_secret_value', baseUrl: 'https://latchkey.example.test' });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toContain('not https');
      expect(String(warn.mock.calls[0]![0])).not.toContain('lk_secret_value');
    } finally {
      warn.mockRestore();
    }
  });
});

describe('verifyWebhook', () => {
  const secret = `whsec_${Buffer.from('a webhook secret of 32 bytes....').toString('base64')}`;
  const body = JSON.stringify({ type: 'session.verdict', data: { otp_code: '123456' } });
  const signed = (at: Date) => {
    const id = 'msg_sdk_test';
    const signature = new Webhook(secret).sign(id, at, body);
    return {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    };
  };

  test('accepts a delivery signed by the stock standardwebhooks library and returns its payload', () => {
    expect(verifyWebhook(body, signed(new Date()), secret)).toEqual(JSON.parse(body));
    expect(verifyWebhook(body, new Headers(signed(new Date())), secret)).toEqual(JSON.parse(body));
  });

  test('after a secret rotation a delivery signed with both secrets verifies with either', () => {
    const other = `whsec_${Buffer.from('the previous secret, 32 bytes...').toString('base64')}`;
    const at = new Date();
    const headers = signed(at);
    const previous = new Webhook(other).sign('msg_sdk_test', at, body);
    const both = { ...headers, 'webhook-signature': `${previous} ${headers['webhook-signature']}` };
    expect(verifyWebhook(body, both, secret)).toEqual(JSON.parse(body));
    expect(verifyWebhook(body, both, other)).toEqual(JSON.parse(body));
  });

  test('refuses an altered body, a wrong secret and a timestamp older than five minutes', () => {
    const headers = signed(new Date());
    const refused = { code: 'webhook_verification_failed' };
    expect(() => verifyWebhook(body.replace('123456', '654321'), headers, secret)).toThrow(
      expect.objectContaining(refused),
    );
    const other = `whsec_${Buffer.from('another secret of 32 bytes......').toString('base64')}`;
    expect(() => verifyWebhook(body, headers, other)).toThrow(expect.objectContaining(refused));
    const old = signed(new Date(Date.now() - 6 * 60_000));
    expect(() => verifyWebhook(body, old, secret)).toThrow(expect.objectContaining(refused));
    expect(() => verifyWebhook(body, {}, secret)).toThrow(expect.objectContaining(refused));
  });
});
