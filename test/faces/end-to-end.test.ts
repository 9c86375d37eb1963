/**
 * The three faces as one product: a session opened through MCP is observed on a GraphQL
 * subscription, receives an SMS through the Twilio webhook, gives its code through /v1 wait, and
 * is closed through GraphQL — with the dashboard stream seeing each step.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import type { TestApp } from '../helpers/app.ts';
import {
  postTwilio,
  startChallengeApp,
  subscribedToAccount,
  watching,
} from '../helpers/challenges.ts';
import { apiKey, newAccount, withKey } from '../helpers/principals.ts';

let t: TestApp;
let key: string;
let accountId: string;
beforeAll(async () => {
  t = await startChallengeApp();
  accountId = await newAccount(t);
  key = await apiKey(t, accountId);
});
afterAll(() => t?.stop());

interface AccountEvent {
  type: string;
  sessionId: string;
  kind: string | null;
}

test('open through MCP, watch on GraphQL, deliver through Twilio, wait through /v1, close through GraphQL', async () => {
  // A dashboard subscribes to the account's session events over WebSocket.
  const events: AccountEvent[] = [];
  const listening = subscribedToAccount(t.app, accountId);
  const ws = createClient({
    url: `${t.baseUrl.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { 'x-api-key': key },
    retryAttempts: 0,
  });
  const subscribed = new Promise<void>((resolve, reject) => {
    listening.then(resolve);
    ws.subscribe<{ accountEvents: AccountEvent }>(
      { query: 'subscription { accountEvents { type sessionId kind } }' },
      {
        next: ({ data }) => data && events.push(data.accountEvents),
        error: reject,
        complete: () => {},
      },
    );
  });
  await subscribed;

  // The agent opens a session through MCP.
  const mcp = new Client({ name: 'e2e', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
      requestInit: { headers: withKey(key) },
    }),
  );
  const opened = (await mcp.callTool({
    name: 'open_challenge',
    arguments: { input: { channel: 'sms_otp', target: 'app.example.test' } },
  })) as unknown as {
    structuredContent: { session_id: string; number: string; next_step: string };
  };
  const { session_id: sessionId, number } = opened.structuredContent;
  expect(number).toMatch(/^\+1\d{10}$/);
  await expect.poll(() => events.map((e) => e.type)).toContain('session.opened');
  expect(events.find((e) => e.type === 'session.opened')?.sessionId).toBe(sessionId);

  // The agent waits through /v1 while the app under test sends its SMS through Twilio.
  const ready = watching(t.app, number);
  const waiting = fetch(`${t.baseUrl}/v1/sessions/${sessionId}/wait`, {
    method: 'POST',
    headers: { ...withKey(key), 'content-type': 'application/json' },
    body: JSON.stringify({ timeout: 20 }),
  });
  await ready;
  const twilio = await postTwilio(t.baseUrl, {
    to: number,
    from: '+14155550123',
    body: 'Your Example code is 318 204. It expires in 10 minutes.',
  });
  expect(twilio.status).toBe(200);
  const verdict = await (await waiting).json();
  expect(verdict).toMatchObject({ session_id: sessionId, verdict: 'otp_code', otp_code: '318204' });
  expect(typeof verdict.received_at).toBe('string');
  await expect.poll(() => events.find((e) => e.type === 'session.verdict')?.kind).toBe('otp_code');

  // The dashboard closes it through GraphQL.
  const closed = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: { ...withKey(key), 'content-type': 'application/json' },
    body: JSON.stringify({
      query: `mutation { closeChallenge(sessionId: "${sessionId}") { status session { state } } }`,
    }),
  });
  expect(await closed.json()).toEqual({
    data: { closeChallenge: { status: 'completed', session: { state: 'completed' } } },
  });
  await expect.poll(() => events.map((e) => e.type)).toContain('session.closed');
  // No event ever carried the code.
  expect(JSON.stringify(events)).not.toContain('318204');

  await mcp.close();
  await ws.dispose();
});
