/**
 * The faces bench's clients over loopback: sessions opened and codes delivered over /v1, the
 * bare loopback round trip, and the waiting clients (graphql-ws subscribers, /v1 long-poll waits).
 */
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { type Stats, stats } from '../stats.ts';
import type { Server } from './server.ts';
import { ACCOUNTS, BASELINE_REQUESTS } from './settings.ts';

// ---------------------------------------------------------------------------------------------
// Sessions and deliveries over /v1.

export interface BenchSession {
  id: string;
  number: string;
  key: string;
}

export async function openSession(server: Server, key: string): Promise<BenchSession> {
  const response = await fetch(`${server.baseUrl}/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify({ channel: 'sms_otp', number_type: 'synthetic' }),
  });
  const body = (await response.json()) as { session_id?: string; number?: string };
  if (response.status !== 201 || !body.session_id || !body.number) {
    throw new Error(`open answered ${response.status}: ${JSON.stringify(body)}`);
  }
  return { id: body.session_id, number: body.number, key };
}

/** `count` sessions on key `keyIndex` of every account, round-robin over the accounts. */
export async function openSessions(server: Server, keyIndex: number, count: number) {
  const perAccount = Array.from({ length: ACCOUNTS }, (_, a) =>
    Array.from({ length: Math.ceil((count - a) / ACCOUNTS) }, () => a),
  );
  // One worker per account (a credential's provisions are serialized anyway).
  const byAccount = await Promise.all(
    perAccount.map(async (slots) => {
      const opened: BenchSession[] = [];
      for (const a of slots) opened.push(await openSession(server, server.keys[a]![keyIndex]!));
      return opened;
    }),
  );
  // Interleave, so consecutive deliveries go to different accounts.
  const sessions: BenchSession[] = [];
  for (let i = 0; sessions.length < count; i++) {
    for (const list of byAccount) if (list[i]) sessions.push(list[i]!);
  }
  return sessions;
}

let codeCounter = 100000;
/** A fresh code for each delivery of the run. */
export const nextCode = () => String(codeCounter++);

export async function deliver(server: Server, session: BenchSession, code: string) {
  const response = await fetch(`${server.baseUrl}/v1/synthetic/sms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': session.key },
    body: JSON.stringify({
      to: session.number,
      from: '+14155550100',
      body: `Your Acme verification code is ${code}. It expires in 10 minutes.`,
    }),
  });
  const text = await response.text();
  if (response.status !== 201)
    throw new Error(`synthetic sms answered ${response.status}: ${text}`);
}

export async function healthz(server: Server) {
  const response = await fetch(`${server.baseUrl}/healthz`);
  await response.text();
  if (!response.ok) throw new Error(`healthz answered ${response.status}`);
}

export async function loopbackRoundTrips(server: Server): Promise<Stats> {
  for (let i = 0; i < 200; i++) await healthz(server);
  const samples: number[] = [];
  for (let i = 0; i < BASELINE_REQUESTS; i++) {
    const started = performance.now();
    await healthz(server);
    samples.push(performance.now() - started);
  }
  return stats(samples);
}

// ---------------------------------------------------------------------------------------------
// Waiting clients: graphql-ws subscribers and /v1 long-poll waits.

export interface Arrival {
  at: number;
  code: string | null;
}

export interface Subscriber {
  session: BenchSession;
  client: Client;
  connected: Promise<void>;
  next(): Promise<Arrival>;
  close(): Promise<void>;
}

export const SUBSCRIPTION = `subscription ($id: ID!) { sessionVerdicts(sessionId: $id) { otpCode receivedAt } }`;

export function subscribe(server: Server, session: BenchSession): Subscriber {
  const buffered: Arrival[] = [];
  const pending: { resolve: (a: Arrival) => void; reject: (e: unknown) => void }[] = [];
  let failure: unknown;
  const fail = (error: unknown) => {
    failure ??= error instanceof Error ? error : new Error(JSON.stringify(error));
    for (const p of pending.splice(0)) p.reject(failure);
  };
  let onConnected!: () => void;
  let onConnectFailed!: (e: unknown) => void;
  const connected = new Promise<void>((resolve, reject) => {
    onConnected = resolve;
    onConnectFailed = reject;
  });
  const client = createClient({
    url: server.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: { 'x-api-key': session.key },
    retryAttempts: 0,
    lazy: true,
    on: {
      connected: () => onConnected(),
      closed: (event) => onConnectFailed(new Error(`socket closed: ${JSON.stringify(event)}`)),
      error: (error) => onConnectFailed(error),
    },
  });
  let ended = false;
  const unsubscribe = client.subscribe<{ sessionVerdicts: { otpCode: string | null } }>(
    { query: SUBSCRIPTION, variables: { id: session.id } },
    {
      next: (value) => {
        const arrival = {
          at: performance.now(),
          code: value.data?.sessionVerdicts.otpCode ?? null,
        };
        if (value.errors) return fail(new Error(JSON.stringify(value.errors)));
        const waiter = pending.shift();
        if (waiter) waiter.resolve(arrival);
        else buffered.push(arrival);
      },
      error: (error) => fail(error),
      complete: () => {
        if (!ended) fail(new Error('subscription completed'));
      },
    },
  );
  connected.catch(() => {});
  return {
    session,
    client,
    connected,
    next() {
      const arrival = buffered.shift();
      if (arrival) return Promise.resolve(arrival);
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => pending.push({ resolve, reject }));
    },
    async close() {
      ended = true;
      unsubscribe();
      await client.dispose();
    },
  };
}

export interface Wait {
  session: BenchSession;
  /** True once the request has answered or failed. */
  settled(): boolean;
  answered: Promise<Arrival & { verdict: string }>;
  abort(): void;
}

export function armWait(server: Server, session: BenchSession): Wait {
  const controller = new AbortController();
  const answered = fetch(`${server.baseUrl}/v1/sessions/${session.id}/wait`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': session.key },
    body: JSON.stringify({ timeout: 60 }),
    signal: controller.signal,
  }).then(async (response) => {
    const body = (await response.json()) as { verdict?: string; otp_code?: string };
    const at = performance.now();
    if (response.status !== 200) {
      throw new Error(`wait answered ${response.status}: ${JSON.stringify(body)}`);
    }
    return { at, code: body.otp_code ?? null, verdict: body.verdict ?? '?' };
  });
  let done = false;
  answered.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  return { session, answered, settled: () => done, abort: () => controller.abort() };
}
