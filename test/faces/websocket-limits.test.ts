/**
 * GraphQL WebSocket limits (issue 11, hardening §4): a client message over 64 KiB closes the
 * socket with 1009 before or after authentication (the `ws` default was 100 MiB), and a socket
 * that does not send `connection_init` within WS_CONNECTION_INIT_TIMEOUT is closed with 4408.
 * Raw `ws` clients speak the protocol by hand, so nothing on the client side trims or times.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '../../src/config.ts';
import { WS_MAX_PAYLOAD } from '../../src/schema/server.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp({ env: { WS_CONNECTION_INIT_TIMEOUT: '1' } });
  key = await apiKey(t, await newAccount(t));
});
afterAll(() => t?.stop());

interface Socket {
  ws: WebSocket;
  messages: { type: string }[];
  closed: Promise<{ code: number; reason: string }>;
}

async function connect(): Promise<Socket> {
  const ws = new WebSocket(`${t.baseUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const messages: { type: string }[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data))));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, messages, closed };
}

/** A `connection_init` whose payload pads the frame to about `bytes`. */
const init = (bytes: number, credential: Record<string, string> = {}) =>
  JSON.stringify({ type: 'connection_init', payload: { ...credential, pad: 'x'.repeat(bytes) } });

describe('message size', () => {
  test('an unauthenticated 100 KiB connection_init closes the socket with 1009, and nothing is written to stderr', async () => {
    const stderr = vi.spyOn(console, 'error');
    try {
      const socket = await connect();
      socket.ws.send(init(100 * 1024));
      expect((await socket.closed).code).toBe(1009);
      expect(socket.messages).toEqual([]);
      expect(stderr).not.toHaveBeenCalled();
    } finally {
      stderr.mockRestore();
    }
  });

  test('an authenticated socket that sends a 100 KiB subscribe is closed with 1009', async () => {
    const socket = await connect();
    socket.ws.send(init(0, { 'x-api-key': key }));
    await expect.poll(() => socket.messages.map((m) => m.type)).toEqual(['connection_ack']);
    const padding = ' '.repeat(100 * 1024);
    socket.ws.send(
      JSON.stringify({
        id: '1',
        type: 'subscribe',
        payload: { query: `subscription {${padding} accountEvents { type } }` },
      }),
    );
    expect((await socket.closed).code).toBe(1009);
  });

  test('a message just under 64 KiB is still accepted', async () => {
    const socket = await connect();
    socket.ws.send(init(WS_MAX_PAYLOAD - 1024, { 'x-api-key': key }));
    await expect.poll(() => socket.messages.map((m) => m.type)).toEqual(['connection_ack']);
    socket.ws.close(1000);
    expect((await socket.closed).code).toBe(1000);
  });
});

describe('connection_init deadline', () => {
  test('the default deadline is 10 s', () => {
    expect(loadConfig({}).wsConnectionInitTimeout).toBe(10);
    expect(() => loadConfig({ WS_CONNECTION_INIT_TIMEOUT: '0' })).toThrow(
      /^WS_CONNECTION_INIT_TIMEOUT: /,
    );
  });

  test('a socket that never sends connection_init is closed with 4408', async () => {
    const socket = await connect();
    const closed = await socket.closed;
    expect(closed).toEqual({ code: 4408, reason: 'Connection initialisation timeout' });
    expect(socket.messages).toEqual([]);
  });
});
