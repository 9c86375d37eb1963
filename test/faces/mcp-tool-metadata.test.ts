/**
 * What MCP hosts read about the tools (decisions.md "MCP hosts"): a title, annotations and an
 * outputSchema on every tool, and results whose `structuredContent` matches it. The MCP SDK client
 * validates `structuredContent` against the listed outputSchema on every call (and refuses a
 * result without it), so each call below through the SDK client is that check, on real data.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { toolOutputs } from '../../src/rest-compat/mcp-tools.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { mcpClient, sendSms } from '../helpers/faces.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

let t: TestApp;
let key: string;
let client: Client;

beforeAll(async () => {
  t = await startTestApp({ env: { FREE_TIER_MONTHLY_SESSIONS: '10000' } });
  key = await apiKey(t, await newAccount(t));
  client = await mcpClient(t, key);
  // The SDK client validates results only against tools it has listed.
  await client.listTools();
});
afterAll(async () => {
  await client?.close();
  await t?.stop();
});

type ToolName = keyof typeof toolOutputs;

/** Calls a tool through the validating SDK client; its text must be its structured content. */
async function call(name: ToolName, input: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: { input } });
  expect(result.isError).toBeFalsy();
  const content = result.content as { type: string; text: string }[];
  expect(JSON.parse(content[0]!.text)).toEqual(result.structuredContent);
  // Nothing beyond the schema: an undeclared field would be invisible to hosts that trust it.
  const declared = Object.keys(toolOutputs[name].shape);
  for (const field of Object.keys(result.structuredContent ?? {})) {
    expect(declared).toContain(field);
  }
  expect(toolOutputs[name].safeParse(result.structuredContent).success).toBe(true);
  // biome-ignore lint/suspicious/noExplicitAny: results are inspected field by field
  return result.structuredContent as any;
}

describe('tool metadata', () => {
  test('every tool has a title, all four annotation hints and an object outputSchema with the shared fields', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(toolOutputs).sort());
    for (const tool of tools) {
      expect(tool.title).toEqual(expect.any(String));
      expect(tool.annotations?.readOnlyHint).toEqual(expect.any(Boolean));
      expect(tool.annotations?.openWorldHint).toEqual(expect.any(Boolean));
      if (!tool.annotations?.readOnlyHint) {
        expect(tool.annotations?.destructiveHint).toEqual(expect.any(Boolean));
        expect(tool.annotations?.idempotentHint).toEqual(expect.any(Boolean));
      }
      expect(tool.outputSchema?.type).toBe('object');
      expect(Object.keys(tool.outputSchema?.properties ?? {}).sort()).toEqual(
        Object.keys(toolOutputs[tool.name as ToolName].shape).sort(),
      );
    }
  });

  test('only list_numbers is read-only, and closing a session is marked destructive and idempotent', async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
    expect(tools.filter((tool) => tool.annotations?.readOnlyHint).map((tool) => tool.name)).toEqual(
      ['list_numbers'],
    );
    expect(byName.release_number).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(byName.open_challenge).toMatchObject({ destructiveHint: false, openWorldHint: true });
  });
});

describe('structured results through the validating SDK client', () => {
  test('a whole session (open, SMS, wait, messages, list, release) answers structuredContent valid against each outputSchema', async () => {
    const opened = await call('open_challenge', { channel: 'sms_otp', target: 'example.com' });
    expect(opened.number).toMatch(/^\+1\d{10}$/);
    const sent = await sendSms(t, key, {
      to: opened.number,
      from: '+14155550123',
      body: 'Your ACME code is 482913',
    });
    expect(sent.status).toBe(201);
    const verdict = await call('wait_for_verdict', { session_id: opened.session_id, timeout: 5 });
    expect(verdict).toMatchObject({ verdict: 'otp_code', otp_code: '482913' });
    const messages = await call('get_messages', { session_id: opened.session_id });
    expect(messages.messages).toHaveLength(1);
    const listed = await call('list_numbers', {});
    expect(listed.sessions.map((s: { session_id: string }) => s.session_id)).toContain(
      opened.session_id,
    );
    const released = await call('release_number', { session_id: opened.session_id });
    expect(released.status).toEqual(expect.any(String));
  });

  test('provision_number and both wait_for_otp outcomes (a code, a timeout) are valid structured results', async () => {
    const provisioned = await call('provision_number', {});
    const timedOut = await call('wait_for_otp', { session_id: provisioned.session_id, timeout: 0 });
    expect(timedOut.verdict).toBe('timeout');
    await sendSms(t, key, {
      to: provisioned.number,
      from: '+14155550123',
      body: 'Your ACME code is 123456',
    });
    const code = await call('wait_for_otp', { session_id: provisioned.session_id, timeout: 5 });
    expect(code.otp_code).toBe('123456');
    await call('release_number', { session_id: provisioned.session_id });
  });
});
