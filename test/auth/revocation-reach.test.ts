/**
 * Issue 11 §3, "Revocation must reach what is already connected": each way of revoking a
 * credential (RFC 7009 token revocation, a security event, an API key's deletion, the console's
 * Disconnect) ends that credential's open WebSocket (close 4401), SSE stream (an
 * `unauthenticated` error, then the end) and /v1 wait (401 `invalid_token`) within 1 s; API keys
 * derived from an agent or a key die with it; an open socket runs nothing more once revoked.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiKey } from '../../src/domain/agents/api-keys.ts';
import { markRevoked } from '../../src/domain/agents/registrations.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { ctxOf } from '../helpers/challenges.ts';
import { FormClient } from '../helpers/form.ts';
import {
  byDeadline,
  type Credential,
  openSession,
  openSocket,
  openStream,
  startWait,
  watched,
} from '../helpers/open-connections.ts';
import { allScopes } from '../helpers/principals.ts';
import { bearer, type ClaimedAgent, claimedAgent, email, get, postForm } from './support.ts';

const issuer = 'https://idp.example.test';
const eventType = 'https://schemas.latchkey.dev/events/agent/auth/identity/assertion/revoked';
let t: TestApp;
let eventKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  eventKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
  t = await startTestApp({
    env: { EVENTS_TRUSTED_ISSUERS: JSON.stringify([{ issuer, jwks: { keys: [jwk] } }]) },
  });
});
afterAll(() => t?.stop());

let jti = 0;
async function securityEvent(registrationId: string) {
  const body = await new SignJWT({
    events: {
      [eventType]: { subject: { format: 'iss_sub', iss: t.baseUrl, sub: registrationId } },
    },
  })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'secevent+jwt' })
    .setIssuer(issuer)
    .setAudience(t.baseUrl)
    .setIssuedAt()
    .setJti(`reach-${++jti}-${Date.now()}`)
    .sign(eventKey);
  const response = await fetch(`${t.baseUrl}/agent/event/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/secevent+jwt' },
    body,
  });
  expect(response.status).toBe(202);
}

/** An API key minted over /v1 by `credential` (an agent's token or another key). */
async function mint(credential: Credential, name = 'minted') {
  const response = await fetch(`${t.baseUrl}/v1/api-keys`, {
    method: 'POST',
    headers: { ...credential, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { id: string; key: string };
  return { id: body.id, credential: { 'x-api-key': body.key } as Credential };
}

async function disconnect(person: FormClient, registrationId: string) {
  const page = await person.get('/console/agents');
  expect(page.text).toContain(registrationId);
  const form = new URLSearchParams({ _csrf: FormClient.csrf(page.text) });
  const answer = await person.post(`/console/agents/${registrationId}/disconnect`, form.toString());
  expect(answer.response.status).toBe(200);
  expect(answer.text).toContain('Agent disconnected');
}

const agentBearer = (agent: ClaimedAgent): Credential => ({
  authorization: `Bearer ${agent.accessToken}`,
});

interface Case {
  /** The credential the connections run under, and how to revoke it. */
  setup(): Promise<{ credential: Credential; revoke(): Promise<void> }>;
}

const cases: Record<string, Case> = {
  'an RFC 7009 token revocation': {
    async setup() {
      const agent = await claimedAgent(t, email('rfc7009'));
      return {
        credential: agentBearer(agent),
        revoke: async () => {
          const answer = await postForm(`${t.baseUrl}/oauth2/revoke`, {
            token: agent.accessToken,
          });
          expect(answer.status).toBe(200);
        },
      };
    },
  },
  'a security event': {
    async setup() {
      const agent = await claimedAgent(t, email('set'));
      return {
        credential: agentBearer(agent),
        revoke: () => securityEvent(agent.registration.registration_id),
      };
    },
  },
  'an API key deletion': {
    async setup() {
      const agent = await claimedAgent(t, email('deletion'), { scope: 'keys:manage' });
      const key = await mint(agentBearer(agent));
      return {
        credential: key.credential,
        revoke: async () => {
          const answer = await fetch(`${t.baseUrl}/v1/api-keys/${key.id}`, {
            method: 'DELETE',
            headers: bearer(agent.accessToken),
          });
          expect(answer.status).toBe(204);
        },
      };
    },
  },
  "the console's Disconnect (on a key minted by a key the agent minted)": {
    async setup() {
      const agent = await claimedAgent(t, email('disconnect'), { scope: 'keys:manage' });
      const parent = await mint(agentBearer(agent), 'parent');
      const grandchild = await mint(parent.credential, 'grandchild');
      return {
        credential: grandchild.credential,
        revoke: () => disconnect(agent.person, agent.registration.registration_id),
      };
    },
  },
};

describe.each(Object.entries(cases))('after %s', (_name, { setup }) => {
  test('the open WebSocket, SSE stream and /v1 wait all end within 1 s', async () => {
    const { credential, revoke } = await setup();
    const before = watched(t);
    const socket = await openSocket(t, credential);
    const stream = await openStream(t, credential);
    const wait = await startWait(t, credential);
    // Each registers its watch before the server answers or blocks: nothing to sleep for.
    await expect.poll(() => watched(t)).toBe(before + 3);

    const started = Date.now();
    const deadline = started + 1000;
    await revoke();
    const [closed, carried, answered] = await Promise.all([
      byDeadline(socket.closed, deadline, 'the WebSocket'),
      byDeadline(stream.ended, deadline, 'the SSE stream'),
      byDeadline(wait.answered, deadline, 'the wait'),
    ]);
    const elapsed = Date.now() - started;

    expect(closed.code).toBe(4401);
    expect(closed.reason).toMatch(/revoked/);
    expect(carried).toContain('"code":"unauthenticated"');
    expect(carried).toContain('event: complete');
    expect(answered.status).toBe(401);
    expect(answered.body.code).toBe('unauthenticated');
    expect(answered.challenge).toContain('error="invalid_token"');
    expect(elapsed).toBeLessThan(1000);
    expect(watched(t)).toBe(before);
    await socket.client.dispose();
  });
});

describe('a wait on the other faces', () => {
  test('an MCP wait_for_verdict in flight ends with unauthenticated within 1 s of the revocation', async () => {
    const agent = await claimedAgent(t, email('mcp-wait'));
    const credential = agentBearer(agent);
    const sessionId = await openSession(t, credential);
    const client = new Client({ name: 'revocation', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
        requestInit: { headers: credential as Record<string, string> },
      }),
    );
    const before = watched(t);
    const called = client.callTool({
      name: 'wait_for_verdict',
      arguments: { input: { session_id: sessionId, timeout: 30 } },
    }) as Promise<{ isError?: boolean; content: { text: string }[] }>;
    await expect.poll(() => watched(t)).toBe(before + 1);

    const started = Date.now();
    await securityEvent(agent.registration.registration_id);
    const result = await byDeadline(called, started + 1000, 'the MCP wait');
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^unauthenticated: /);
    await client.close();
  });

  test('a GraphQL waitForVerdict over HTTP answers 401 within 1 s of the revocation', async () => {
    const agent = await claimedAgent(t, email('graphql-wait'));
    const credential = agentBearer(agent);
    const sessionId = await openSession(t, credential);
    const before = watched(t);
    const answered = fetch(`${t.baseUrl}/graphql`, {
      method: 'POST',
      headers: { ...credential, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: `mutation { waitForVerdict(sessionId: "${sessionId}", timeout: 30) { __typename } }`,
      }),
    });
    await expect.poll(() => watched(t)).toBe(before + 1);

    const started = Date.now();
    expect(
      (await postForm(`${t.baseUrl}/oauth2/revoke`, { token: agent.accessToken })).status,
    ).toBe(200);
    const response = await byDeadline(answered, started + 1000, 'the GraphQL wait');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(((await response.json()) as { code: string }).code).toBe('unauthenticated');
  });
});

describe('an open WebSocket', () => {
  test('runs nothing once its credential is revoked, even before the revocation is announced', async () => {
    const agent = await claimedAgent(t, email('ws-mint'), { scope: 'keys:manage' });
    const socket = await openSocket(t, agentBearer(agent));
    // Revoked in the database only: no event reaches the socket.
    await markRevoked(ctxOf(t.app), agent.registration.registration_id);

    const minted = await new Promise<{ data?: unknown; error?: unknown }>((resolve) =>
      socket.client.subscribe(
        { query: 'mutation { createApiKey(name: "late") { secret } }' },
        {
          next: (value) => resolve({ data: value }),
          error: (error) => resolve({ error }),
          complete: () => resolve({}),
        },
      ),
    );
    expect(JSON.stringify(minted)).not.toContain('lk_live_');
    expect((await socket.closed).code).toBe(4401);
    const [row] = await t.app.db.orm.em
      .fork()
      .getConnection()
      .execute('select count(*)::int as n from api_key where created_by = ?', [
        agent.registration.registration_id,
      ]);
    expect(row.n).toBe(0);
  });

  test('is ended by the periodic re-check when a revocation was never announced', async () => {
    const agent = await claimedAgent(t, email('recheck'));
    const credential = agentBearer(agent);
    const before = watched(t);
    const socket = await openSocket(t, credential);
    const stream = await openStream(t, credential);
    const wait = await startWait(t, credential);
    await expect.poll(() => watched(t)).toBe(before + 3);
    await markRevoked(ctxOf(t.app), agent.registration.registration_id);

    // What the timer (CREDENTIAL_RECHECK_INTERVAL) and a Redis resync run.
    await t.app.server.revocations.recheck();
    const deadline = Date.now() + 1000;
    expect((await byDeadline(socket.closed, deadline, 'the WebSocket')).code).toBe(4401);
    expect(await byDeadline(stream.ended, deadline, 'the SSE stream')).toContain('unauthenticated');
    expect((await byDeadline(wait.answered, deadline, 'the wait')).status).toBe(401);
  });

  test('of another credential is left alone by a revocation', async () => {
    const revoked = await claimedAgent(t, email('revoked-one'));
    const bystander = await claimedAgent(t, email('bystander'));
    const socket = await openSocket(t, agentBearer(bystander));
    const wait = await startWait(t, agentBearer(bystander));
    await securityEvent(revoked.registration.registration_id);
    // The bystander's socket still serves: an operation on it answers normally.
    const usage = await new Promise<unknown>((resolve) =>
      socket.client.subscribe(
        { query: '{ __typename }' },
        { next: resolve, error: resolve, complete: () => {} },
      ),
    );
    expect(usage).toEqual({ data: { __typename: 'Query' } });
    await fetch(`${t.baseUrl}/v1/sessions/${wait.sessionId}`, {
      method: 'DELETE',
      headers: agentBearer(bystander),
    });
    expect((await wait.answered).status).not.toBe(401);
    await socket.client.dispose();
  });
});

describe('key lineage', () => {
  test('deleting a key deletes the keys it minted, down the tree, and leaves its parent', async () => {
    const agent = await claimedAgent(t, email('tree'), { scope: 'keys:manage' });
    const first = await mint(agentBearer(agent), 'first');
    const second = await mint(first.credential, 'second');
    const third = await mint(second.credential, 'third');
    const [row] = await t.app.db.orm.em
      .fork()
      .getConnection()
      .execute('select parent_key_id, registration_id from api_key where id = ?', [third.id]);
    expect(row).toEqual({
      parent_key_id: second.id,
      registration_id: agent.registration.registration_id,
    });

    const deleted = await fetch(`${t.baseUrl}/v1/api-keys/${second.id}`, {
      method: 'DELETE',
      headers: first.credential,
    });
    expect(deleted.status).toBe(204);
    const status = async (credential: Credential) =>
      (await get(`${t.baseUrl}/v1/api-keys`, credential as Record<string, string>)).status;
    expect(await status(second.credential)).toBe(401);
    expect(await status(third.credential)).toBe(401);
    expect(await status(first.credential)).toBe(200);
  });

  test('a key minted for a registration revoked meanwhile never works', async () => {
    const agent = await claimedAgent(t, email('race'), { scope: 'keys:manage' });
    const registrationId = agent.registration.registration_id;
    const em = t.app.db.orm.em.fork();
    const [account] = await em
      .getConnection()
      .execute('select account_id from agent_registration where id = ?', [registrationId]);
    await markRevoked(ctxOf(t.app), registrationId);
    // The insert that lost the race with the revocation: the row exists, the key is refused.
    const { secret } = await createApiKey(
      t.app.db.orm.em.fork(),
      {
        accountId: account.account_id,
        name: 'late',
        scopes: ['sessions:read'],
        createdBy: registrationId,
      },
      new Set(allScopes),
    );
    expect((await get(`${t.baseUrl}/v1/api-keys`, { 'x-api-key': secret })).status).toBe(401);
  });
});

describe("the console's agents page", () => {
  test("lists the account's agents; another account's agent cannot be disconnected", async () => {
    const mine = await claimedAgent(t, email('mine'));
    const theirs = await claimedAgent(t, email('theirs'));
    const page = await mine.person.get('/console/agents');
    expect(page.response.status).toBe(200);
    expect(page.text).toContain(mine.registration.registration_id);
    expect(page.text).not.toContain(theirs.registration.registration_id);
    expect(page.text).toContain('>Disconnect</button>');

    const form = new URLSearchParams({ _csrf: FormClient.csrf(page.text) });
    const refused = await mine.person.post(
      `/console/agents/${theirs.registration.registration_id}/disconnect`,
      form.toString(),
    );
    expect(refused.response.status).toBe(404);
    expect(refused.text).toContain('not_found');
    expect((await get(`${t.baseUrl}/v1/usage`, bearer(theirs.accessToken))).status).toBe(200);
  });

  test('a Disconnect without its CSRF token is refused and revokes nothing', async () => {
    const agent = await claimedAgent(t, email('csrf'));
    const refused = await agent.person.post(
      `/console/agents/${agent.registration.registration_id}/disconnect`,
      '',
    );
    expect(refused.response.status).toBe(403);
    expect((await get(`${t.baseUrl}/v1/usage`, bearer(agent.accessToken))).status).toBe(200);
  });
});
