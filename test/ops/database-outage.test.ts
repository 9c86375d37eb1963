/**
 * Issue 11 §6, "Faults degrade, never lie": while the database is unreachable, /v1 and waits answer
 * 503 `service_unavailable` with Retry-After (GraphQL and MCP carry the same code), /readyz fails
 * naming the database while /healthz stays up, open subscriptions stay open, and everything works
 * again once the database is back.
 *
 * The fault is real: the service reaches its database (a throw-away database on the real
 * PostgreSQL in CI, an in-memory PGlite on its loopback socket otherwise) only through a TCP proxy
 * the test cuts (connections reset, new ones refused) or blackholes (new ones never answered).
 */
import { createClient } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { callTool, graphql, mcpClient, rest, sendSms } from '../helpers/faces.ts';
import { type ProxiedDatabase, startProxiedDatabase } from '../helpers/faults.ts';
import { apiKey, newAccount, withKey } from '../helpers/principals.ts';

let db: ProxiedDatabase;
let t: TestApp;
let key: string;
const logLines: string[] = [];

beforeAll(async () => {
  db = await startProxiedDatabase();
  // LOG_LEVEL warn: the outage warnings are what the subscription test watches for.
  t = await startTestApp({ env: { DATABASE_URL: db.url, LOG_LEVEL: 'warn' }, logLines });
  key = await apiKey(t, await newAccount(t));
});
afterAll(async () => {
  await t?.stop();
  await db?.stop();
});
afterEach(() => {
  vi.useRealTimers();
  db.proxy.restore();
});

async function openSession() {
  const opened = await rest(t, 'POST', '/v1/sessions', key, {});
  expect(opened.status).toBe(201);
  return opened.body as { session_id: string; number: string };
}

/** Starts `request` (a wait), cuts the database once the wait has begun, and returns its answer. */
async function cutDuring<T>(request: () => Promise<T>): Promise<T> {
  const before = t.app.challenges.waiters.size;
  const answer = request();
  await expect.poll(() => t.app.challenges.waiters.size).toBeGreaterThan(before);
  db.proxy.cut();
  return answer;
}

function expectUnavailable(answer: { status: number; headers: Headers; body: unknown }) {
  expect(answer.status).toBe(503);
  expect(answer.headers.get('retry-after')).toBe('5');
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.body).toMatchObject({ status: 503, code: 'service_unavailable' });
  expect(JSON.stringify(answer.body)).not.toMatch(/ECONN|Connection terminated|at .*\.ts/);
}

describe('REST while the database is unreachable', () => {
  test('/v1 answers 503 service_unavailable with Retry-After, then serves again once it is back', async () => {
    db.proxy.cut();
    expectUnavailable(await rest(t, 'GET', '/v1/sessions', key));
    expectUnavailable(await rest(t, 'POST', '/v1/sessions', key, {}));
    db.proxy.restore();
    expect((await rest(t, 'GET', '/v1/sessions', key)).status).toBe(200);
  });

  test('a wait in progress when the database goes away answers 503 with Retry-After, not 500', async () => {
    const session = await openSession();
    const answer = await cutDuring(() =>
      rest(t, 'POST', `/v1/sessions/${session.session_id}/wait`, key, { timeout: 2 }),
    );
    expectUnavailable(answer);
  });

  test('a database that stops answering still gets a 503, bounded by DATABASE_CONNECT_TIMEOUT', async () => {
    db.proxy.blackhole();
    expectUnavailable(await rest(t, 'GET', '/v1/sessions', key));
  });
});

describe('GraphQL and MCP while the database is unreachable', () => {
  test('a GraphQL wait cut off by the outage carries extensions.code service_unavailable and retryAfter', async () => {
    const session = await openSession();
    const answer = await cutDuring(() =>
      graphql(
        t,
        key,
        'mutation($id: ID!) { waitForVerdict(sessionId: $id, timeout: 2) { verdict } }',
        {
          id: session.session_id,
        },
      ),
    );
    expect(answer.body.errors[0].extensions).toEqual({
      code: 'service_unavailable',
      retryAfter: 5,
    });
  });

  test('an MCP wait cut off by the outage is an isError result starting with service_unavailable', async () => {
    const session = await openSession();
    const client = await mcpClient(t, key);
    try {
      const { result, text } = await cutDuring(() =>
        callTool(client, 'wait_for_verdict', { session_id: session.session_id, timeout: 2 }),
      );
      expect(result.isError).toBe(true);
      expect(text).toMatch(/^service_unavailable: /);
    } finally {
      await client.close();
    }
  });
});

describe('OAuth endpoints while the database is unreachable', () => {
  test('registration and the token endpoint answer RFC 6749 temporarily_unavailable (503 + Retry-After), not server_error', async () => {
    db.proxy.cut();
    const registration = await fetch(`${t.baseUrl}/agent/identity`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'service_auth', login_hint: 'outage@example.test' }),
    });
    const token = await fetch(`${t.baseUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:latchkey:agent-auth:grant-type:claim',
        claim_token: 'clt_never_issued_0123456789',
      }).toString(),
    });
    for (const response of [registration, token]) {
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect((await response.json()).error).toBe('temporarily_unavailable');
    }
  });
});

describe('/readyz and /healthz', () => {
  test('/readyz fails naming the database while it is unreachable, /healthz stays up, and both recover', async () => {
    const ready = await fetch(`${t.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ok',
      database: 'ok',
      redis: 'not_configured',
    });

    db.proxy.cut();
    const down = await fetch(`${t.baseUrl}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({
      status: 'unavailable',
      database: 'unreachable',
      redis: 'not_configured',
    });
    expect((await fetch(`${t.baseUrl}/healthz`)).status).toBe(200);

    db.proxy.blackhole();
    expect((await fetch(`${t.baseUrl}/readyz`)).status).toBe(503);

    db.proxy.restore();
    expect((await fetch(`${t.baseUrl}/readyz`)).status).toBe(200);
  });
});

describe('subscriptions through an outage', () => {
  const wsUrl = () => `${t.baseUrl.replace('http', 'ws')}/graphql`;

  test('an open verdict subscription stays open through the outage and its credential re-check, then delivers the code', async () => {
    const session = await openSession();
    const closes: number[] = [];
    const client = createClient({
      url: wsUrl(),
      webSocketImpl: WebSocket,
      connectionParams: { 'x-api-key': key },
      retryAttempts: 0,
    });
    client.on('closed', (event) => closes.push((event as { code: number }).code));
    const verdicts: { verdict: string; otpCode: string }[] = [];
    const errors: unknown[] = [];
    client.subscribe<{ sessionVerdicts: { verdict: string; otpCode: string } }>(
      {
        query: `subscription { sessionVerdicts(sessionId: "${session.session_id}") { verdict otpCode } }`,
      },
      {
        next: ({ data }) => data && verdicts.push(data.sessionVerdicts),
        error: (error) => errors.push(error),
        complete: () => {},
      },
    );
    try {
      const waiting = t.app.challenges.waiters.size;
      await expect.poll(() => t.app.challenges.waiters.size).toBeGreaterThan(waiting);

      db.proxy.cut();
      // Another instance announces a verdict: the subscription must look in the database, which
      // is unreachable; it waits the outage out instead of ending with an error.
      const seen = logLines.length;
      await t.app.challenges.events.publish('session', session.session_id, {
        type: 'verdict',
        sessionId: session.session_id,
        verdictId: 'vrd_announced_during_outage',
        kind: 'otp_code',
        receivedAt: new Date().toISOString(),
      });
      // The periodic credential re-check (CREDENTIAL_RECHECK_INTERVAL) runs now, and cannot reach
      // the database.
      await t.app.server.revocations.recheck();
      await expect
        .poll(() => logLines.slice(seen).some((line) => line.includes('re-check failed')))
        .toBe(true);
      expect(closes).toEqual([]);
      expect(errors).toEqual([]);

      db.proxy.restore();
      const sent = await sendSms(t, key, {
        to: session.number,
        from: '+14155550111',
        body: 'Your code is 662607',
      });
      expect(sent.status).toBe(201);
      await expect
        .poll(() => verdicts, { timeout: 15_000 })
        .toEqual([{ verdict: 'otp_code', otpCode: '662607' }]);
      expect(closes).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await client.dispose();
    }
  });

  test('a verdict subscription over SSE stays open through the outage and then delivers the code', async () => {
    const session = await openSession();
    const abort = new AbortController();
    const before = t.app.challenges.waiters.size;
    const response = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { ...withKey(key), 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({
        query: `subscription { sessionVerdicts(sessionId: "${session.session_id}") { verdict otpCode } }`,
      }),
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    const pump = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        received += decoder.decode(value, { stream: true });
      }
    })().catch(() => {});
    try {
      await expect.poll(() => t.app.challenges.waiters.size).toBeGreaterThan(before);
      db.proxy.cut();
      await t.app.challenges.events.publish('session', session.session_id, {
        type: 'verdict',
        sessionId: session.session_id,
        verdictId: 'vrd_announced_during_outage',
        kind: 'otp_code',
        receivedAt: new Date().toISOString(),
      });
      // The subscription's wait ran into the outage and is now backing off, not ended.
      await expect.poll(() => t.app.challenges.waiters.size).toBe(before);
      db.proxy.restore();
      const sent = await sendSms(t, key, {
        to: session.number,
        from: '+14155550112',
        body: 'Your code is 602214',
      });
      expect(sent.status).toBe(201);
      await expect.poll(() => received, { timeout: 15_000 }).toContain('"otpCode":"602214"');
      expect(received).not.toMatch(/event: (error|complete)/);
      expect(received).not.toContain('"errors"');
    } finally {
      abort.abort();
      await pump;
    }
  });

  test('a WebSocket connecting while the database is unreachable is told to try again later (1013), not forbidden (4403)', async () => {
    db.proxy.cut();
    const client = createClient({
      url: wsUrl(),
      webSocketImpl: WebSocket,
      connectionParams: { 'x-api-key': key },
      retryAttempts: 0,
    });
    const closed = new Promise<number>((resolve) =>
      client.on('closed', (event) => resolve((event as { code: number }).code)),
    );
    client.subscribe(
      { query: 'subscription { accountEvents { type } }' },
      { next: () => {}, error: () => {}, complete: () => {} },
    );
    expect(await closed).toBe(1013);
    await client.dispose();
  });
});
