/**
 * Long-lived callers for the revocation tests: a graphql-ws socket, a GraphQL-over-SSE stream and
 * a /v1 wait in flight, each with a promise that settles when the server ends it, and a deadline
 * helper that measures instead of sleeping.
 */
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { TestApp } from './app.ts';

export type Credential = { authorization: string } | { 'x-api-key': string };

/** How many connections, streams and waits the app is watching for revocation. */
export const watched = (t: TestApp) => t.app.server.revocations.size;

/** A graphql-ws client subscribed to accountEvents; `closed` resolves with the close event. */
export async function openSocket(t: TestApp, credential: Credential) {
  let onClosed: (event: { code: number; reason: string }) => void = () => {};
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    onClosed = resolve;
  });
  const client = createClient({
    url: `${t.baseUrl.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: credential,
    retryAttempts: 0,
    lazy: false,
    onNonLazyError: () => {},
    on: { closed: (event) => onClosed(event as { code: number; reason: string }) },
  });
  const connected = new Promise<void>((resolve) => client.on('connected', () => resolve()));
  const errors: unknown[] = [];
  client.subscribe(
    { query: 'subscription { accountEvents { type } }' },
    { next: () => {}, error: (error) => errors.push(error), complete: () => {} },
  );
  await Promise.race([
    connected,
    closed.then((event) => {
      throw new Error(`the socket was refused: ${event.code} ${event.reason}`);
    }),
  ]);
  return { client, closed, errors };
}

/** A GraphQL-over-SSE subscription; `ended` resolves with everything the stream carried. */
export async function openStream(t: TestApp, credential: Credential) {
  const response = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: { ...credential, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ query: 'subscription { accountEvents { type } }' }),
  });
  if (response.status !== 200) throw new Error(`SSE refused: ${response.status}`);
  const ended = (async () => {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return text;
      text += decoder.decode(value, { stream: true });
    }
  })();
  return { ended };
}

/** Opens an email session with the credential; its id. */
export async function openSession(t: TestApp, credential: Credential) {
  const opened = await fetch(`${t.baseUrl}/v1/sessions`, {
    method: 'POST',
    headers: { ...credential, 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'email_otp' }),
  });
  if (opened.status !== 201) throw new Error(`session not opened: ${await opened.text()}`);
  return ((await opened.json()) as { session_id: string }).session_id;
}

/** Opens an email session with the credential and starts a 30 s /v1 wait on it. */
export async function startWait(t: TestApp, credential: Credential) {
  const sessionId = await openSession(t, credential);
  const answered = fetch(`${t.baseUrl}/v1/sessions/${sessionId}/wait`, {
    method: 'POST',
    headers: { ...credential, 'content-type': 'application/json' },
    body: JSON.stringify({ timeout: 30 }),
  }).then(async (response) => ({
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    body: (await response.json()) as { code?: string; verdict?: string },
  }));
  return { sessionId, answered };
}

/** Resolves with `promise`'s value, or fails once `deadline` (epoch ms) has passed. */
export function byDeadline<T>(promise: Promise<T>, deadline: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not end by the deadline`)),
      Math.max(0, deadline - Date.now()),
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
