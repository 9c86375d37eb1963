/**
 * The MCP face at /mcp: stateless Streamable HTTP (no handshake, no mcp-session-id), the Accept
 * rule, the `input` wrapper, the seven tools and what each returns, and the 401 challenge.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { callTool, mcpClient, mcpRaw, sendSms, toolCall } from '../helpers/faces.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

let t: TestApp;
let key: string;
let client: Client;

beforeAll(async () => {
  t = await startTestApp({ env: { FREE_TIER_MONTHLY_SESSIONS: '10000' } });
  key = await apiKey(t, await newAccount(t));
  client = await mcpClient(t, key);
});
afterAll(async () => {
  await client?.close();
  await t?.stop();
});

const sevenTools = [
  'get_messages',
  'list_numbers',
  'open_challenge',
  'provision_number',
  'release_number',
  'wait_for_otp',
  'wait_for_verdict',
];

describe('the transport', () => {
  test('a POST without Accept: application/json, text/event-stream is HTTP 406', async () => {
    const call = toolCall(1, 'list_numbers', { input: {} });
    expect((await mcpRaw(t, key, call, null)).status).toBe(406);
    expect((await mcpRaw(t, key, call, 'application/json')).status).toBe(406);
    expect((await mcpRaw(t, key, call, 'text/event-stream')).status).toBe(406);
  });

  test('a raw tools/call works without an initialize handshake, answers an event stream carrying JSON, and sets no mcp-session-id', async () => {
    const response = await mcpRaw(t, key, toolCall(7, 'list_numbers', { input: {} }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(response.payloads).toHaveLength(1);
    const [payload] = response.payloads;
    expect(payload.jsonrpc).toBe('2.0');
    expect(payload.id).toBe(7);
    expect(payload.result.isError).toBeFalsy();
    expect(JSON.parse(payload.result.content[0].text)).toEqual({
      sessions: expect.any(Array),
      has_more: expect.any(Boolean),
    });
  });

  test('tools/list names exactly the seven tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(sevenTools);
    const raw = await mcpRaw(t, key, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(raw.payloads[0].result.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(
      sevenTools,
    );
  });

  test('arguments without the input wrapper are a validation error (SDK client and raw)', async () => {
    let refused = false;
    try {
      const result = (await client.callTool({
        name: 'open_challenge',
        arguments: { channel: 'sms_otp' },
      })) as { isError?: boolean };
      refused = result.isError === true;
    } catch {
      refused = true;
    }
    expect(refused).toBe(true);

    const raw = await mcpRaw(t, key, toolCall(3, 'open_challenge', { channel: 'sms_otp' }));
    expect(raw.status).toBe(200);
    const [payload] = raw.payloads;
    expect(payload.error !== undefined || payload.result?.isError === true).toBe(true);
    // Nothing was opened by the refused call.
    const listed = await callTool(client, 'list_numbers', { limit: 100 });
    expect(listed.data.sessions).toEqual([]);
  });

  test('without x-api-key the POST is HTTP 401 with the resource-metadata challenge', async () => {
    const response = await mcpRaw(t, null, toolCall(1, 'list_numbers', { input: {} }));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource"`,
    );
  });
});

describe('the tools', () => {
  test('open_challenge returns exactly session_id, channel, agent_id, expires_at, number and next_step for sms_otp', async () => {
    const { result, data } = await callTool(client, 'open_challenge', { channel: 'sms_otp' });
    expect(result.isError).toBeFalsy();
    expect(Object.keys(data).sort()).toEqual(
      ['agent_id', 'channel', 'expires_at', 'next_step', 'number', 'session_id'].sort(),
    );
    expect(data.session_id).toMatch(/^ses_/);
    expect(data.channel).toBe('sms_otp');
    expect(data.number).toMatch(/^\+1\d{10}$/);
    expect(Date.parse(data.expires_at)).toBeGreaterThan(Date.now());
    expect(data.next_step).toEqual(expect.any(String));
    await callTool(client, 'release_number', { session_id: data.session_id });
  });

  test('open_challenge with email_otp returns an inbox_address instead of a number', async () => {
    const { data } = await callTool(client, 'open_challenge', { channel: 'email_otp' });
    expect(Object.keys(data).sort()).toEqual(
      ['agent_id', 'channel', 'expires_at', 'inbox_address', 'next_step', 'session_id'].sort(),
    );
    expect(data.channel).toBe('email_otp');
    expect(data.inbox_address).toMatch(/^[^@\s]+@[^@\s]+$/);
    await callTool(client, 'release_number', { session_id: data.session_id });
  });

  test.each(['accounts.google.com', 'https://stripe.com/login'])(
    'open_challenge for target %s is refused with unsupported_target',
    async (target) => {
      const { result, text } = await callTool(client, 'open_challenge', {
        channel: 'sms_otp',
        target,
      });
      expect(result.isError).toBe(true);
      expect(text).toMatch(/^unsupported_target:/);
    },
  );

  test('provision_number returns session_id, an E.164 number, expires_at and next_step', async () => {
    const { data } = await callTool(client, 'provision_number', {});
    expect(Object.keys(data).sort()).toEqual(
      ['expires_at', 'next_step', 'number', 'session_id'].sort(),
    );
    expect(data.number).toMatch(/^\+[1-9]\d{6,14}$/);
    await callTool(client, 'release_number', { session_id: data.session_id });
  });

  test('list_numbers pages with limit and after, has_more telling when to call again', async () => {
    const own = await mcpClient(t, await apiKey(t, await newAccount(t)));
    const opened: string[] = [];
    for (let i = 0; i < 3; i++)
      opened.push((await callTool(own, 'open_challenge', { channel: 'sms_otp' })).data.session_id);
    const first = await callTool(own, 'list_numbers', { limit: 2 });
    expect(first.data.has_more).toBe(true);
    expect(first.data.sessions).toHaveLength(2);
    const last = first.data.sessions.at(-1).session_id;
    const second = await callTool(own, 'list_numbers', { limit: 2, after: last });
    expect(second.data.has_more).toBe(false);
    expect(second.data.sessions).toHaveLength(1);
    const seen = [...first.data.sessions, ...second.data.sessions].map(
      (s: { session_id: string }) => s.session_id,
    );
    expect(seen.sort()).toEqual([...opened].sort());
    await own.close();
  });

  test('wait_for_otp returns exactly otp_code, from_number, received_at and next_step after an SMS', async () => {
    const { data: opened } = await callTool(client, 'provision_number', {});
    const sent = await sendSms(t, key, {
      to: opened.number,
      from: '+14155550123',
      body: 'Your ACME code is 482913',
    });
    expect(sent.status).toBe(201);
    const { result, data } = await callTool(client, 'wait_for_otp', {
      session_id: opened.session_id,
      timeout: 5,
    });
    expect(result.isError).toBeFalsy();
    expect(Object.keys(data).sort()).toEqual(
      ['from_number', 'next_step', 'otp_code', 'received_at'].sort(),
    );
    expect(data.otp_code).toBe('482913');
    expect(data.from_number).toBe('+14155550123');
    expect(Date.parse(data.received_at)).not.toBeNaN();
    await callTool(client, 'release_number', { session_id: opened.session_id });
  });

  test('wait_for_otp with auto_reroute and nothing received returns exactly the renewal result on a new number', async () => {
    const { data: opened } = await callTool(client, 'provision_number', {});
    const { result, data } = await callTool(client, 'wait_for_otp', {
      session_id: opened.session_id,
      timeout: 1,
      auto_reroute: true,
    });
    expect(result.isError).toBeFalsy();
    expect(Object.keys(data).sort()).toEqual(
      [
        'country',
        'expires_at',
        'message',
        'new_number',
        'previous_number',
        'session_id',
        'status',
      ].sort(),
    );
    expect(data.status).toBe('carrier_retry_required');
    expect(data.session_id).toBe(opened.session_id);
    expect(data.previous_number).toBe(opened.number);
    expect(data.new_number).toMatch(/^\+1\d{10}$/);
    expect(data.new_number).not.toBe(opened.number);
    expect(data.country).toBe('US');
    expect(Date.parse(data.expires_at)).not.toBeNaN();
    expect(data.message).toEqual(expect.any(String));
    await callTool(client, 'release_number', { session_id: opened.session_id });
  });

  test('wait_for_verdict with timeout 0 and nothing received is verdict timeout with a next_step saying how to resume', async () => {
    const { data: opened } = await callTool(client, 'provision_number', {});
    const { result, data } = await callTool(client, 'wait_for_verdict', {
      session_id: opened.session_id,
      timeout: 0,
    });
    expect(result.isError).toBeFalsy();
    expect(data).toEqual({
      session_id: opened.session_id,
      received_at: null,
      verdict: 'timeout',
      next_step: expect.stringContaining('wait_for_verdict again with the same session_id'),
    });
    await callTool(client, 'release_number', { session_id: opened.session_id });
  });

  test('get_messages lists what arrived, with has_more', async () => {
    const { data: opened } = await callTool(client, 'provision_number', {});
    await sendSms(t, key, { to: opened.number, from: 'ACME', body: 'code 246810' });
    const { data } = await callTool(client, 'get_messages', { session_id: opened.session_id });
    expect(data.has_more).toBe(false);
    expect(data.messages).toHaveLength(1);
    await callTool(client, 'release_number', { session_id: opened.session_id });
  });

  test('release_number returns {status: "completed"} and the session leaves list_numbers', async () => {
    const { data: opened } = await callTool(client, 'provision_number', {});
    const { data } = await callTool(client, 'release_number', { session_id: opened.session_id });
    expect(data).toEqual({ status: 'completed' });
    const listed = await callTool(client, 'list_numbers', { limit: 100 });
    expect(listed.data.sessions.map((s: { session_id: string }) => s.session_id)).not.toContain(
      opened.session_id,
    );
  });
});
