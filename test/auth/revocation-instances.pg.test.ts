/**
 * Revocation across instances (issue 11 §3): two instances share one PostgreSQL database and one
 * Redis; a credential revoked on instance A ends the WebSocket, SSE stream and /v1 wait open on
 * instance B within 1 s. Needs LATCHKEY_TEST_DATABASE_URL and LATCHKEY_TEST_REDIS_URL.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { FormClient } from '../helpers/form.ts';
import {
  byDeadline,
  type Credential,
  openSocket,
  openStream,
  startWait,
  watched,
} from '../helpers/open-connections.ts';
import { claimedAgent, email, postForm } from './support.ts';

const redisUrl = process.env.LATCHKEY_TEST_REDIS_URL;
let database: TestDatabase;
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  if (!redisUrl || !process.env.LATCHKEY_TEST_DATABASE_URL) {
    throw new Error('needs LATCHKEY_TEST_DATABASE_URL and LATCHKEY_TEST_REDIS_URL');
  }
  database = await createTestDatabase();
  // Instances sharing a database share the sealing keys (each has its own DATA_DIR).
  const env = {
    DATABASE_URL: database.url!,
    REDIS_URL: redisUrl,
    SECRETS_KEY: database.secretsKey,
  };
  a = await startTestApp({ env });
  // One service behind two instances: one public URL (the tokens' audience), two ports.
  b = await startTestApp({ env: { ...env, PUBLIC_BASE_URL: a.baseUrl } });
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await database?.drop();
});

/** Opens the three long-lived callers on B and returns what ends them. */
async function openOnB(credential: Credential) {
  const before = watched(b);
  const socket = await openSocket(b, credential);
  const stream = await openStream(b, credential);
  const wait = await startWait(b, credential);
  await expect.poll(() => watched(b)).toBe(before + 3);
  return { socket, stream, wait };
}

async function endedWithin(opened: Awaited<ReturnType<typeof openOnB>>, started: number) {
  const deadline = started + 1000;
  const [closed, carried, answered] = await Promise.all([
    byDeadline(opened.socket.closed, deadline, 'the WebSocket on B'),
    byDeadline(opened.stream.ended, deadline, 'the SSE stream on B'),
    byDeadline(opened.wait.answered, deadline, 'the wait on B'),
  ]);
  expect(closed.code).toBe(4401);
  expect(carried).toContain('"code":"unauthenticated"');
  expect(answered.status).toBe(401);
  expect(Date.now() - started).toBeLessThan(1000);
  await opened.socket.client.dispose();
}

describe('two instances, one database, one Redis', () => {
  test('an access token revoked on A ends its subscription, stream and wait on B within 1 s', async () => {
    expect(a.app.challenges.events.shared && b.app.challenges.events.shared).toBe(true);
    const agent = await claimedAgent(a, email('across'));
    const opened = await openOnB({ authorization: `Bearer ${agent.accessToken}` });

    const started = Date.now();
    const revoked = await postForm(`${a.baseUrl}/oauth2/revoke`, { token: agent.accessToken });
    expect(revoked.status).toBe(200);
    await endedWithin(opened, started);
  });

  test('disconnecting an agent on A ends, on B, what runs under a key it minted', async () => {
    const agent = await claimedAgent(a, email('across-keys'), { scope: 'keys:manage' });
    const minted = await fetch(`${a.baseUrl}/v1/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${agent.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'minted' }),
    });
    const { key } = (await minted.json()) as { key: string };
    const opened = await openOnB({ 'x-api-key': key });

    const page = await agent.person.get('/console/agents');
    const form = new URLSearchParams({ _csrf: FormClient.csrf(page.text) });
    const started = Date.now();
    const answer = await agent.person.post(
      `/console/agents/${agent.registration.registration_id}/disconnect`,
      form.toString(),
    );
    expect(answer.response.status).toBe(200);
    await endedWithin(opened, started);
  });
});
