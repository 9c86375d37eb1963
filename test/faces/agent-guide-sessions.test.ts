/**
 * The agent guide served at /agent/skill.md continues past registration: it walks through a
 * challenge session, and every MCP tool and route it names is one the service really serves.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { mcpClient } from '../helpers/faces.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

let t: TestApp;
let guide: string;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
  key = await apiKey(t, await newAccount(t));
  guide = await (await fetch(`${t.baseUrl}/agent/skill.md`)).text();
});
afterAll(() => t?.stop());

test('the guide walks from opening a session to waiting for and closing it', () => {
  for (const step of [
    `POST ${t.baseUrl}/v1/sessions`,
    `POST ${t.baseUrl}/v1/sessions/{session_id}/wait`,
    `DELETE ${t.baseUrl}/v1/sessions/{session_id}`,
    'Idempotency-Key',
  ])
    expect(guide, step).toContain(step);
});

test('every MCP tool the guide names is listed by the server', async () => {
  const named = [...guide.matchAll(/`([a-z]+(?:_[a-z]+)+)`/g)].map((m) => m[1]!);
  const client = await mcpClient(t, key);
  try {
    const { tools } = await client.listTools();
    const served = new Set(tools.map((tool) => tool.name));
    const toolsNamed = [
      'open_challenge',
      'wait_for_verdict',
      'get_messages',
      'list_numbers',
      'release_number',
    ];
    for (const tool of toolsNamed) {
      expect(named, tool).toContain(tool);
      expect(served.has(tool), tool).toBe(true);
    }
  } finally {
    await client.close();
  }
});

test('the schema, OpenAPI and error pages the guide points to are served', async () => {
  for (const path of ['/graphql/schema.graphql', '/openapi.json', '/docs/errors']) {
    expect(guide).toContain(`${t.baseUrl}${path}`);
    expect((await fetch(`${t.baseUrl}${path}`)).status, path).toBe(200);
  }
});
