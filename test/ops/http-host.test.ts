import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { postWithKey } from '../helpers/faces.ts';
import { apiKey, newAccount, withKey } from '../helpers/principals.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

describe('operations endpoints', () => {
  test('/healthz answers while the process runs', async () => {
    const response = await fetch(`${t.baseUrl}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  test('/readyz answers 200 when the database answers', async () => {
    const response = await fetch(`${t.baseUrl}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      database: 'ok',
      redis: 'not_configured',
    });
  });

  test('/metrics exposes request latency by route template and event-loop lag', async () => {
    await fetch(`${t.baseUrl}/healthz`);
    const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
    expect(text).toMatch(/http_request_duration_seconds_bucket\{[^}]*route="\/healthz"/);
    expect(text).toMatch(/nodejs_eventloop_lag_seconds/);
  });

  test('/metrics counts every request of a route and status, and each status apart', async () => {
    const count = async (path: string, status: number) => {
      const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
      const line = text
        .split('\n')
        .find(
          (l) =>
            l.startsWith('http_request_duration_seconds_count{') &&
            l.includes('method="GET"') &&
            l.includes(`route="${path}"`) &&
            l.includes(`status_code="${status}"`),
        );
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const before = await count('/v1/sessions/:id', 401);
    for (let i = 0; i < 3; i++) await (await fetch(`${t.baseUrl}/v1/sessions/ses_x`)).arrayBuffer();
    expect(await count('/v1/sessions/:id', 401)).toBe(before + 3);
    expect(await count('/v1/sessions/:id', 200)).toBe(0);
  });
});

describe('the HTTP host', () => {
  test('a request forks its EntityManager only when its route reads request.em: none for /healthz or a pending wait, one for a synthetic SMS', async () => {
    const key = await apiKey(t, await newAccount(t));
    const post = postWithKey(t, key);
    const { session_id: id } = (await (
      await post('/v1/sessions', { channel: 'email_otp' })
    ).json()) as { session_id: string };

    // The service's jobs (expiry, webhook deliveries) fork the same EntityManager whenever they
    // run; only the forks made by the request's getter (app.ts) are the request's.
    const em = t.app.db.orm.em;
    const original = em.fork.bind(em);
    let requestForks = 0;
    const fork = vi.spyOn(em, 'fork').mockImplementation((options) => {
      if (/\bgetter \(.*src\/app\.ts/.test(new Error().stack ?? '')) requestForks += 1;
      return original(options);
    });
    try {
      // /healthz answers from memory: nothing of the database.
      expect((await fetch(`${t.baseUrl}/healthz`)).status).toBe(200);
      expect(requestForks).toBe(0);

      // A wait runs on the operation's own fork and holds none of the request's while pending.
      const abort = new AbortController();
      const waiting = post(`/v1/sessions/${id}/wait`, { timeout: 120 }, abort.signal).catch(
        (error: unknown) => error,
      );
      await expect.poll(() => t.app.challenges.waiters.size).toBe(1);
      expect(requestForks).toBe(0);
      abort.abort();
      expect(await waiting).toBeInstanceOf(Error);

      // The synthetic SMS route reads request.em once: one fork, whatever the answer (a number no
      // session of this account holds is 404, after the lookup).
      const sms = await post('/v1/synthetic/sms', {
        to: '+12025550142',
        from: '+12025550100',
        body: 'Your code is 123456',
      });
      expect(sms.status).toBe(404);
      expect(requestForks).toBe(1);
    } finally {
      fork.mockRestore();
    }
  });

  test('every response carries a request id, and a plausible incoming one is kept', async () => {
    const fresh = await fetch(`${t.baseUrl}/healthz`);
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await fetch(`${t.baseUrl}/healthz`, {
      headers: { 'x-request-id': 'trace-12345678' },
    });
    expect(kept.headers.get('x-request-id')).toBe('trace-12345678');
    const hostile = await fetch(`${t.baseUrl}/healthz`, {
      headers: { 'x-request-id': '<script>' },
    });
    expect(hostile.headers.get('x-request-id')).not.toBe('<script>');
  });

  test('security headers are set', async () => {
    const response = await fetch(`${t.baseUrl}/console/login`);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  test('every response carries the same security headers: a /v1 answer, a refusal, a 404, a console page', async () => {
    const headerNames = [
      'content-security-policy',
      'cross-origin-embedder-policy',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
      'origin-agent-cluster',
      'referrer-policy',
      'strict-transport-security',
      'x-content-type-options',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-frame-options',
      'x-permitted-cross-domain-policies',
      'x-powered-by',
      'x-xss-protection',
    ];
    const securityHeaders = async (path: string, init?: RequestInit) => {
      const response = await fetch(t.baseUrl + path, init);
      await response.arrayBuffer();
      return Object.fromEntries(headerNames.map((name) => [name, response.headers.get(name)]));
    };
    const key = await apiKey(t, await newAccount(t));
    const expected = {
      'content-security-policy':
        "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'none';img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';style-src 'self'",
      'cross-origin-embedder-policy': null,
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'origin-agent-cluster': '?1',
      'referrer-policy': 'no-referrer',
      // PUBLIC_BASE_URL is http here: no HSTS.
      'strict-transport-security': null,
      'x-content-type-options': 'nosniff',
      'x-dns-prefetch-control': 'off',
      'x-download-options': 'noopen',
      'x-frame-options': 'SAMEORIGIN',
      'x-permitted-cross-domain-policies': 'none',
      'x-powered-by': null,
      'x-xss-protection': '0',
    };
    expect(await securityHeaders('/v1/sessions', { headers: withKey(key) })).toEqual(expected);
    expect(await securityHeaders('/v1/sessions')).toEqual(expected);
    expect(await securityHeaders('/no/such/path')).toEqual(expected);
    expect(await securityHeaders('/console/login')).toEqual(expected);
  });

  test('an unknown path is a problem+json 404 with a stable code', async () => {
    const response = await fetch(`${t.baseUrl}/no/such/path`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await response.json()).toMatchObject({
      status: 404,
      code: 'not_found',
      title: 'No such resource',
    });
  });

  test('malformed JSON is a 400 invalid_request, not a 500', async () => {
    const response = await fetch(`${t.baseUrl}/healthz`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"unterminated',
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: string };
    expect(body.code).toBe('invalid_request');
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+/);
  });

  test('an unsupported content type is a 415 unsupported_media_type', async () => {
    const response = await fetch(`${t.baseUrl}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-unknown' },
      body: 'hello',
    });
    expect(response.status).toBe(415);
    expect((await response.text()).toString()).toContain('unsupported_media_type');
  });

  test('an oversized body is a 413 payload_too_large', async () => {
    const response = await fetch(`${t.baseUrl}/healthz`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(200 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { code: string }).code).toBe('payload_too_large');
  });
});
