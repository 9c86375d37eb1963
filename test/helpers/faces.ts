/**
 * Callers for the face tests: REST (problem+json aware), GraphQL over HTTP, the MCP SDK client and
 * raw JSON-RPC POSTs to /mcp, and a synthetic SMS sender.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestApp } from './app.ts';
import { withKey } from './principals.ts';

export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected field by field
  body: any;
  text: string;
}

export async function rest(
  t: TestApp,
  method: string,
  path: string,
  key: string | null,
  body?: unknown,
  raw?: string,
): Promise<Answer> {
  const response = await fetch(t.baseUrl + path, {
    method,
    headers: {
      ...(key ? withKey(key) : {}),
      ...(body !== undefined || raw !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: raw ?? (body !== undefined ? JSON.stringify(body) : undefined),
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

/** POSTs JSON with an API key; the raw Response, and a signal to abort (a long-poll wait). */
export const postWithKey =
  (t: TestApp, key: string) => (path: string, body: unknown, signal?: AbortSignal) =>
    fetch(t.baseUrl + path, {
      method: 'POST',
      headers: { ...withKey(key), 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });

export async function graphql(
  t: TestApp,
  key: string | null,
  query: string,
  variables?: Record<string, unknown>,
): Promise<Answer> {
  const response = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? withKey(key) : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
}

export interface ToolResult {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
}

export async function mcpClient(t: TestApp, key: string) {
  const client = new Client({ name: 'face-tests', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
      requestInit: { headers: withKey(key) },
    }),
  );
  return client;
}

/** Calls a tool through the SDK client and parses its JSON text (when not an error). */
export async function callTool(client: Client, name: string, input: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: { input } })) as ToolResult;
  const text = result.content[0]?.text ?? '';
  // biome-ignore lint/suspicious/noExplicitAny: tool output is inspected field by field
  const data: any = result.isError ? null : JSON.parse(text);
  return { result, text, data };
}

export const MCP_ACCEPT = 'application/json, text/event-stream';

/** A raw JSON-RPC POST to /mcp; the event stream's `data:` payloads are parsed. */
export async function mcpRaw(
  t: TestApp,
  key: string | null,
  message: unknown,
  accept: string | null = MCP_ACCEPT,
) {
  const response = await fetch(`${t.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(accept ? { accept } : {}),
      ...(key ? withKey(key) : {}),
    },
    body: typeof message === 'string' ? message : JSON.stringify(message),
  });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC payloads are inspected field by field
  let payloads: any[] = [];
  if (contentType.startsWith('text/event-stream')) {
    payloads = text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .filter(Boolean)
      .map((data) => JSON.parse(data));
  } else if (text) {
    try {
      payloads = [JSON.parse(text)];
    } catch {
      payloads = [];
    }
  }
  return { status: response.status, headers: response.headers, text, payloads };
}

export const toolCall = (id: number, name: string, args: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

export function sendSms(t: TestApp, key: string, sms: { to: string; from: string; body: string }) {
  return fetch(`${t.baseUrl}/v1/synthetic/sms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...withKey(key) },
    body: JSON.stringify(sms),
  });
}
