/**
 * The benches' HTTP client. The client shares the machine's two cores with the service and
 * PostgreSQL, so every microsecond it spends is taken from what is measured; in production the
 * load comes from other machines. Node's global `fetch` (WHATWG streams, Headers and Response
 * objects per call) cost 148 µs of client CPU per request in a same-machine probe against a bare
 * `node:http` server, undici's `request` on a keep-alive agent 34 µs, for the same requests and
 * answers (bench/results/throughput.md, "Session 5"). Both are undici underneath.
 *
 * `BENCH_CLIENT=fetch` measures with the global `fetch` instead, as the suites did before, so a
 * figure can be reproduced with either client.
 */
import { Agent, request } from 'undici';

export const clientKind: 'undici' | 'fetch' =
  process.env.BENCH_CLIENT === 'fetch' ? 'fetch' : 'undici';

/** One keep-alive agent for the whole run (connections are reused across requests). */
const agent = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000 });

export interface Answer {
  status: number;
  text: string;
}

/** Sends one request and reads the whole answer. */
export async function send(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  if (clientKind === 'fetch') {
    const response = await fetch(url, { method, headers, body });
    return { status: response.status, text: await response.text() };
  }
  const response = await request(url, {
    method: method as 'GET',
    headers,
    body,
    dispatcher: agent,
  });
  return { status: response.statusCode, text: await response.body.text() };
}

/** A `/v1` call: JSON in and out, the API key when given. */
export async function sendJson(
  method: string,
  url: string,
  key: string | undefined,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await send(
    method,
    url,
    {
      ...(key ? { 'x-api-key': key } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body !== undefined ? JSON.stringify(body) : undefined,
  );
  return { status: answer.status, body: answer.text ? JSON.parse(answer.text) : {} };
}
