/**
 * HTTP transport limits (issue 11, hardening §4): slow clients are cut off (headers within
 * HTTP_HEADERS_TIMEOUT, the whole request within HTTP_BODY_TIMEOUT), connections are capped by
 * HTTP_MAX_CONNECTIONS, and none of it cuts an answer that takes long: a long-poll wait, an SSE
 * stream and a WebSocket subscription all outlive the body timeout.
 *
 * The timeouts are Node's own timers, which fake timers cannot drive, so these apps run with
 * timeouts of one or two seconds and the slow clients really trickle.
 */
import net from 'node:net';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { apiKey, newAccount, withKey } from '../helpers/principals.ts';

interface RawOutcome {
  /** Everything the server sent before the socket closed. */
  received: string;
}

/**
 * Opens a raw TCP connection, writes `first`, then writes `trickle` every 100 ms until the server
 * closes the connection; resolves with what the server sent.
 */
function slowClient(port: number, first: string, trickle: string): Promise<RawOutcome> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('connect', () => {
      socket.write(first);
      timer = setInterval(() => socket.writable && socket.write(trickle), 100);
    });
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    // The server may reset while a trickled byte is in flight; what matters is that it hung up.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ received });
    });
    socket.on('timeout', () => reject(new Error('no close')));
  });
}

/** Sends one keep-alive request on a fresh socket and resolves once its answer has arrived. */
function keptAliveConnection(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    });
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (received.includes('{"status":"ok"}')) resolve(socket);
    });
    socket.on('error', reject);
  });
}

describe('configuration', () => {
  test('the defaults are headers within 30 s, the whole request within 60 s, 10000 connections', () => {
    expect(loadConfig({})).toMatchObject({
      httpHeadersTimeout: 30,
      httpBodyTimeout: 60,
      httpMaxConnections: 10_000,
    });
  });

  test('a headers timeout longer than the body timeout stops the start with a message naming it', () => {
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT: '90', HTTP_BODY_TIMEOUT: '60' })).toThrow(
      'HTTP_HEADERS_TIMEOUT: must not be longer than HTTP_BODY_TIMEOUT',
    );
    expect(() => loadConfig({ HTTP_MAX_CONNECTIONS: '0' })).toThrow(/^HTTP_MAX_CONNECTIONS: /);
  });
});

describe('slow headers and the connection cap', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    // A body timeout of a minute: only the headers timeout can cut a client within this test.
    t = await startTestApp({
      env: { HTTP_HEADERS_TIMEOUT: '1', HTTP_BODY_TIMEOUT: '60', HTTP_MAX_CONNECTIONS: '2' },
    });
    port = Number(new URL(t.baseUrl).port);
  });
  afterAll(() => t?.stop());

  test('a slowloris client that trickles its headers gets 408 and is disconnected', async () => {
    const { received } = await slowClient(
      port,
      'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      'X-Slow: a\r\n',
    );
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  test('a connection that never completes its request line is disconnected', async () => {
    const { received } = await slowClient(port, 'GET /', 'a');
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  test('beyond HTTP_MAX_CONNECTIONS a new connection is dropped unanswered; once one closes, it is served', async () => {
    const held = [await keptAliveConnection(port), await keptAliveConnection(port)];
    const dropped = await slowClient(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', '');
    expect(dropped.received).toBe('');

    held[0]!.destroy();
    await expect.poll(() => connectionCount(t)).toBeLessThan(2);
    const served = await keptAliveConnection(port);
    served.destroy();
    held[1]!.destroy();
  });
});

function connectionCount(t: TestApp): Promise<number> {
  return new Promise((resolve, reject) =>
    t.app.server.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

describe('slow bodies, and answers that take long', () => {
  let t: TestApp;
  let port: number;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { HTTP_HEADERS_TIMEOUT: '1', HTTP_BODY_TIMEOUT: '2' } });
    port = Number(new URL(t.baseUrl).port);
    key = await apiKey(t, await newAccount(t));
  });
  afterAll(() => t?.stop());

  test('a client that sends its headers promptly but trickles its body gets 408 and is disconnected', async () => {
    const { received } = await slowClient(
      port,
      'POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{',
      ' ',
    );
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  test('a long-poll wait, an SSE stream and a WebSocket subscription outlive the body timeout', async () => {
    const post = (path: string, body: unknown) =>
      fetch(t.baseUrl + path, {
        method: 'POST',
        headers: { ...withKey(key), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const subscription = 'subscription { accountEvents { type sessionId } }';

    // The account's events over SSE: everything the stream carries is collected.
    const abort = new AbortController();
    const sse = await fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { ...withKey(key), 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: subscription }),
      signal: abort.signal,
    });
    expect(sse.status).toBe(200);
    let sseText = '';
    const reading = (async () => {
      const decoder = new TextDecoder();
      try {
        const reader = sse.body!.getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read())
          sseText += decoder.decode(read.value, { stream: true });
      } catch {
        // Aborted at the end of the test.
      }
    })();

    // The same events over WebSocket.
    const wsEvents: string[] = [];
    const ws = createClient({
      url: `${t.baseUrl.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: withKey(key),
      retryAttempts: 0,
    });
    ws.subscribe(
      { query: subscription },
      {
        next: (value) => void wsEvents.push(JSON.stringify(value)),
        error: () => {},
        complete: () => {},
      },
    );

    // A long-poll wait that lasts twice the body timeout answers normally.
    const first = (await (await post('/v1/sessions', { channel: 'email_otp' })).json()) as {
      session_id: string;
    };
    const waited = await post(`/v1/sessions/${first.session_id}/wait`, { timeout: 4 });
    expect(waited.status).toBe(200);
    expect(await waited.json()).toMatchObject({ session_id: first.session_id, verdict: 'timeout' });

    // Both streams, open for longer than two body timeouts, still carry the next event.
    const second = (await (await post('/v1/sessions', { channel: 'email_otp' })).json()) as {
      session_id: string;
    };
    await expect.poll(() => sseText).toContain(`"sessionId":"${second.session_id}"`);
    await expect.poll(() => wsEvents.join()).toContain(`"sessionId":"${second.session_id}"`);
    abort.abort();
    await reading;
    await ws.dispose();
  });
});
