import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';

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
});

describe('the HTTP host', () => {
  test('a request forks its EntityManager only when it uses one (a pending wait holds none of its own)', async () => {
    const fork = vi.spyOn(t.app.db.orm.em, 'fork');
    try {
      // /healthz answers from memory: nothing of the database, so no fork.
      expect((await fetch(`${t.baseUrl}/healthz`)).status).toBe(200);
      expect(fork).not.toHaveBeenCalled();
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
