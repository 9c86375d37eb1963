/** GraphQL subscriptions over SSE (graphql-yoga's GraphQL-over-SSE), with the same credentials. */
import { createClient } from 'graphql-sse';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { subscribedToAccount } from '../helpers/challenges.ts';
import { apiKey, newAccount, withKey } from '../helpers/principals.ts';

let t: TestApp;
let key: string;
let accountId: string;
beforeAll(async () => {
  t = await startTestApp();
  accountId = await newAccount(t);
  key = await apiKey(t, accountId);
});
afterAll(() => t?.stop());

test('accountEvents streams over SSE: a session opened through /v1 arrives as an event', async () => {
  const abort = new AbortController();
  const listening = subscribedToAccount(t.app, accountId);
  const response = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: { ...withKey(key), 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query: 'subscription { accountEvents { type sessionId } }' }),
    signal: abort.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);

  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  const nextEvent = async (): Promise<{ type: string; sessionId: string }> => {
    while (true) {
      const match = /event: next\ndata: (.+)\n\n/.exec(buffered);
      if (match) {
        buffered = buffered.slice(match.index + match[0].length);
        return JSON.parse(match[1]!).data.accountEvents;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended');
      buffered += decoder.decode(value, { stream: true });
    }
  };

  await listening;
  const opened = await fetch(`${t.baseUrl}/v1/sessions`, {
    method: 'POST',
    headers: { ...withKey(key), 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'email_otp' }),
  });
  const session = (await opened.json()) as { session_id: string };
  expect(await nextEvent()).toEqual({ type: 'session.opened', sessionId: session.session_id });
  abort.abort();
});

test('an SSE subscription without a credential is 401, and without the scope is insufficient_scope', async () => {
  const anonymous = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query: 'subscription { accountEvents { type } }' }),
  });
  expect(anonymous.status).toBe(401);

  const usageOnly = await apiKey(t, await newAccount(t), ['usage:read']);
  const refused = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: {
      ...withKey(usageOnly),
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({ query: 'subscription { accountEvents { type } }' }),
  });
  const text = await refused.text();
  expect(text).toContain('"code":"insufficient_scope"');
});

test('the stock graphql-sse client (distinct connections mode) receives accountEvents with an API key', async () => {
  const client = createClient({
    url: `${t.baseUrl}/graphql`,
    headers: withKey(key),
    retryAttempts: 0,
  });
  let connected!: () => void;
  const ready = new Promise<void>((resolve) => {
    connected = resolve;
  });
  const events = client.iterate<{ accountEvents: { type: string; sessionId: string } }>(
    { query: 'subscription { accountEvents { type sessionId } }' },
    { connected: () => connected() },
  );
  const first = events.next();
  await ready;
  const opened = await fetch(`${t.baseUrl}/v1/sessions`, {
    method: 'POST',
    headers: { ...withKey(key), 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'email_otp' }),
  });
  const session = (await opened.json()) as { session_id: string };
  const { value } = await first;
  expect(value?.data?.accountEvents).toEqual({
    type: 'session.opened',
    sessionId: session.session_id,
  });
  await events.return?.();
  client.dispose();
});
