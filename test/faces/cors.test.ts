/**
 * Cross-origin access (decisions.md "Cross-origin access"): preflights for `/graphql`, `/v1` and
 * `/mcp` answer the origins in CORS_ORIGINS only, with the credential headers and never `*`; other
 * paths and other origins get nothing; unset, nothing at all. A page served from another local
 * origin calls /v1 with an API key from a real Chromium.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

let t: TestApp;
let key: string;
let page: http.Server;
let pageOrigin: string;

beforeAll(async () => {
  // The dashboard's own origin: a second local HTTP server on another port.
  page = http.createServer((_request, response) => {
    response.setHeader('content-type', 'text/html');
    response.end('<!doctype html><title>dashboard</title>');
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  t = await startTestApp({ env: { CORS_ORIGINS: `https://app.example.com, ${pageOrigin}` } });
  key = await apiKey(t, await newAccount(t));
});
afterAll(async () => {
  await t?.stop();
  await new Promise((resolve) => page?.close(resolve));
});

function preflight(base: string, path: string, origin: string, method = 'POST') {
  return fetch(base + path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization, x-api-key, idempotency-key, content-type',
    },
  });
}

describe('CORS preflights', () => {
  for (const path of ['/graphql', '/v1/sessions', '/v1/sessions/ses_x/wait', '/mcp']) {
    test(`an allowed origin's preflight to ${path} is granted with credentials and its headers`, async () => {
      const response = await preflight(t.baseUrl, path, 'https://app.example.com');
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(response.headers.get('access-control-allow-credentials')).toBe('true');
      const headers = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      for (const header of ['authorization', 'x-api-key', 'idempotency-key', 'content-type'])
        expect(headers).toContain(header);
      expect(response.headers.get('vary')).toMatch(/origin/i);
    });
  }

  test('DELETE is among the allowed methods (DELETE /v1/api-keys/:id)', async () => {
    const response = await preflight(
      t.baseUrl,
      '/v1/api-keys/key_x',
      'https://app.example.com',
      'DELETE',
    );
    expect(response.headers.get('access-control-allow-methods')).toContain('DELETE');
  });

  test('another origin gets no Access-Control-Allow-Origin, never *', async () => {
    const response = await preflight(t.baseUrl, '/v1/sessions', 'https://evil.example.net');
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('paths outside /graphql, /v1 and /mcp grant no cross-origin access', async () => {
    for (const path of ['/oauth2/token', '/console/login', '/ingest/sms/twilio']) {
      const response = await preflight(t.baseUrl, path, 'https://app.example.com');
      expect(response.headers.get('access-control-allow-origin'), path).toBeNull();
    }
  });

  test('an actual cross-origin answer names the origin and exposes Retry-After', async () => {
    const response = await fetch(`${t.baseUrl}/v1/sessions`, {
      headers: { origin: 'https://app.example.com', 'x-api-key': key },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(response.headers.get('access-control-expose-headers')).toContain('Retry-After');
  });

  test('with CORS_ORIGINS unset no origin is granted', async () => {
    const plain = await startTestApp();
    try {
      const response = await preflight(plain.baseUrl, '/v1/sessions', 'https://app.example.com');
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await plain.stop();
    }
  });

  test('CORS_ORIGINS refuses * and anything that is not an origin', async () => {
    const { loadConfig } = await import('../../src/config.ts');
    for (const bad of ['*', 'https://app.example.com/path', 'app.example.com'])
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(/CORS_ORIGINS/);
  });
});

test('a page on another origin reads /v1 with an API key from a real Chromium', async () => {
  const browser = await launchBrowser();
  try {
    const tab = await browser.newPage();
    await tab.goto(pageOrigin);
    const answer = await tab.evaluate(
      async ({ url, key }) => {
        const response = await fetch(url, { headers: { 'x-api-key': key } });
        return { status: response.status, body: await response.json() };
      },
      { url: `${t.baseUrl}/v1/sessions`, key },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toHaveProperty('sessions');
    // The same call from a page on an origin not on the list is blocked by the browser.
    const stranger = http.createServer((_request, response) => response.end('<!doctype html>'));
    await new Promise<void>((resolve) => stranger.listen(0, '127.0.0.1', resolve));
    let blocked: string;
    try {
      await tab.goto(`http://127.0.0.1:${(stranger.address() as AddressInfo).port}`);
      blocked = await tab.evaluate(
        async ({ url, key }) => {
          try {
            await fetch(url, { headers: { 'x-api-key': key } });
            return 'answered';
          } catch {
            return 'blocked';
          }
        },
        { url: `${t.baseUrl}/v1/sessions`, key },
      );
    } finally {
      await new Promise((resolve) => stranger.close(resolve));
    }
    expect(blocked).toBe('blocked');
  } finally {
    await browser.close();
  }
}, 60_000);
