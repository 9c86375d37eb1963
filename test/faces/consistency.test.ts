/**
 * One service, three faces: a session opened through any face is seen, waited on and closed
 * through any other, and the same failure carries the same stable code everywhere — the
 * problem+json `code` on /v1, `extensions.code` on GraphQL, the text prefix of an MCP `isError`
 * result.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { callTool, graphql, mcpClient, rest, sendSms } from '../helpers/faces.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

let t: TestApp;
let key: string;
let mcp: Client;

beforeAll(async () => {
  t = await startTestApp({ env: { FREE_TIER_MONTHLY_SESSIONS: '10000' } });
  key = await apiKey(t, await newAccount(t));
  mcp = await mcpClient(t, key);
});
afterAll(async () => {
  await mcp?.close();
  await t?.stop();
});

const sessionFields = 'id channel state number inboxAddress agentId expiresAt';

async function gqlData(query: string, variables?: Record<string, unknown>) {
  const answer = await graphql(t, key, query, variables);
  expect(answer.body.errors, answer.text).toBeUndefined();
  return answer.body.data;
}

describe('a session crosses faces', () => {
  test('opened via REST, read via GraphQL, waited on via MCP after a synthetic SMS, closed via GraphQL', async () => {
    const opened = await rest(t, 'POST', '/v1/sessions', key, { channel: 'sms_otp' });
    expect(opened.status).toBe(201);
    const id = opened.body.session_id;

    const { session } = await gqlData(`query($id: ID!) { session(id: $id) { ${sessionFields} } }`, {
      id,
    });
    expect(session).toEqual({
      id,
      channel: 'sms_otp',
      state: 'active',
      number: opened.body.number,
      inboxAddress: null,
      agentId: opened.body.agent_id,
      expiresAt: opened.body.expires_at,
    });

    const sent = await sendSms(t, key, {
      to: opened.body.number,
      from: '+14155550199',
      body: 'Your verification code is 731904',
    });
    expect(sent.status).toBe(201);
    const waited = await callTool(mcp, 'wait_for_verdict', { session_id: id, timeout: 5 });
    expect(waited.result.isError).toBeFalsy();
    expect(waited.data).toMatchObject({
      session_id: id,
      verdict: 'otp_code',
      otp_code: '731904',
      from: '+14155550199',
    });

    const closed = await gqlData(
      'mutation($id: ID!) { closeChallenge(sessionId: $id) { status session { id state } } }',
      { id },
    );
    expect(closed.closeChallenge).toEqual({
      status: 'completed',
      session: { id, state: 'completed' },
    });

    const seen = await rest(t, 'GET', `/v1/sessions/${id}`, key);
    expect(seen.status).toBe(200);
    expect(seen.body.state).toBe('completed');
    const listed = await callTool(mcp, 'list_numbers', { limit: 100 });
    expect(listed.data.sessions.map((s: { session_id: string }) => s.session_id)).not.toContain(id);
  });

  test('opened via GraphQL, listed via MCP, closed via REST', async () => {
    const { openChallenge } = await gqlData(
      `mutation { openChallenge(input: {channel: email_otp}) { ${sessionFields} } }`,
    );
    const id = openChallenge.id;
    expect(openChallenge.inboxAddress).toMatch(/@/);

    const listed = await callTool(mcp, 'list_numbers', { limit: 100 });
    const entry = listed.data.sessions.find((s: { session_id: string }) => s.session_id === id);
    expect(entry).toMatchObject({
      session_id: id,
      channel: 'email_otp',
      state: 'active',
      inbox_address: openChallenge.inboxAddress,
      agent_id: openChallenge.agentId,
      expires_at: openChallenge.expiresAt,
    });

    const closed = await rest(t, 'DELETE', `/v1/sessions/${id}`, key);
    expect(closed.status).toBe(200);
    expect(closed.body.status).toBe('completed');
    expect(closed.body.session).toMatchObject({ session_id: id, state: 'completed' });

    const { session } = await gqlData(`query($id: ID!) { session(id: $id) { id state } }`, { id });
    expect(session).toEqual({ id, state: 'completed' });
    const after = await callTool(mcp, 'list_numbers', { limit: 100 });
    expect(after.data.sessions.map((s: { session_id: string }) => s.session_id)).not.toContain(id);
  });

  test('opened via MCP, waited on via REST, messages read via GraphQL', async () => {
    const { data: opened } = await callTool(mcp, 'provision_number', {});
    await sendSms(t, key, { to: opened.number, from: 'ACME', body: 'ACME code: 118822' });
    const waited = await rest(t, 'POST', `/v1/sessions/${opened.session_id}/wait`, key, {
      timeout: 5,
    });
    expect(waited.status).toBe(200);
    expect(waited.body).toMatchObject({ verdict: 'otp_code', otp_code: '118822', from: 'ACME' });
    const { messages } = await gqlData(
      'query($id: ID!) { messages(sessionId: $id) { edges { node { sessionId from medium } } } }',
      { id: opened.session_id },
    );
    expect(messages.edges).toEqual([
      { node: { sessionId: opened.session_id, from: 'ACME', medium: 'sms' } },
    ]);
    await callTool(mcp, 'release_number', { session_id: opened.session_id });
  });
});

/** The code each face reports for the same failing operation. */
async function codes(op: {
  rest: [string, string, unknown?];
  graphql: [string, Record<string, unknown>];
  tool: [string, Record<string, unknown>];
}) {
  const r = await rest(t, op.rest[0], op.rest[1], key, op.rest[2]);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const g = await graphql(t, key, ...op.graphql);
  expect(g.body.errors).toHaveLength(1);
  const m = await callTool(mcp, ...op.tool);
  expect(m.result.isError).toBe(true);
  return {
    rest: { status: r.status, code: r.body.code },
    graphql: g.body.errors[0].extensions.code,
    mcp: m.text.split(':')[0],
  };
}

describe('the same error carries the same code on every face', () => {
  test('a missing session is not_found (404) everywhere', async () => {
    const id = 'ses_doesnotexist000000000';
    expect(
      await codes({
        rest: ['GET', `/v1/sessions/${id}/messages`],
        graphql: ['query($id: ID!) { messages(sessionId: $id) { edges { node { id } } } }', { id }],
        tool: ['get_messages', { session_id: id }],
      }),
    ).toEqual({ rest: { status: 404, code: 'not_found' }, graphql: 'not_found', mcp: 'not_found' });
    expect(
      await codes({
        rest: ['POST', `/v1/sessions/${id}/wait`, { timeout: 0 }],
        graphql: [
          'mutation($id: ID!) { waitForVerdict(sessionId: $id, timeout: 0) { verdict } }',
          { id },
        ],
        tool: ['wait_for_verdict', { session_id: id, timeout: 0 }],
      }),
    ).toEqual({ rest: { status: 404, code: 'not_found' }, graphql: 'not_found', mcp: 'not_found' });
  });

  test("another account's session is not_found everywhere, like a missing one", async () => {
    const other = await apiKey(t, await newAccount(t));
    const opened = await rest(t, 'POST', '/v1/sessions', other, { channel: 'sms_otp' });
    const id = opened.body.session_id;
    expect(
      await codes({
        rest: ['DELETE', `/v1/sessions/${id}`],
        graphql: ['mutation($id: ID!) { closeChallenge(sessionId: $id) { status } }', { id }],
        tool: ['release_number', { session_id: id }],
      }),
    ).toEqual({ rest: { status: 404, code: 'not_found' }, graphql: 'not_found', mcp: 'not_found' });
    expect((await rest(t, 'GET', `/v1/sessions/${id}`, other)).body.state).toBe('active');
  });

  test('waiting on a closed session is session_closed (409) everywhere', async () => {
    const opened = await rest(t, 'POST', '/v1/sessions', key, { channel: 'sms_otp' });
    const id = opened.body.session_id;
    expect((await rest(t, 'DELETE', `/v1/sessions/${id}`, key)).status).toBe(200);
    expect(
      await codes({
        rest: ['POST', `/v1/sessions/${id}/wait`, { timeout: 0 }],
        graphql: [
          'mutation($id: ID!) { waitForVerdict(sessionId: $id, timeout: 0) { verdict } }',
          { id },
        ],
        tool: ['wait_for_verdict', { session_id: id, timeout: 0 }],
      }),
    ).toEqual({
      rest: { status: 409, code: 'session_closed' },
      graphql: 'session_closed',
      mcp: 'session_closed',
    });
  });

  test('a refused target is unsupported_target everywhere', async () => {
    const result = await codes({
      rest: ['POST', '/v1/sessions', { channel: 'sms_otp', target: 'accounts.google.com' }],
      graphql: [
        'mutation { openChallenge(input: {channel: sms_otp, target: "accounts.google.com"}) { id } }',
        {},
      ],
      tool: ['open_challenge', { channel: 'sms_otp', target: 'accounts.google.com' }],
    });
    expect(result.graphql).toBe('unsupported_target');
    expect(result.mcp).toBe('unsupported_target');
    expect(result.rest.code).toBe('unsupported_target');
    expect(result.rest.status).toBeGreaterThanOrEqual(400);
    expect(result.rest.status).toBeLessThan(500);
  });

  test('a NUL in an id is invalid_request (400) everywhere', async () => {
    const id = 'ses_\u0000';
    expect(
      await codes({
        rest: ['GET', `/v1/sessions/${encodeURIComponent(id)}/messages`],
        graphql: ['query($id: ID!) { messages(sessionId: $id) { edges { node { id } } } }', { id }],
        tool: ['get_messages', { session_id: id }],
      }),
    ).toEqual({
      rest: { status: 400, code: 'invalid_request' },
      graphql: 'invalid_request',
      mcp: 'invalid_request',
    });
  });
});
