/**
 * Benchmark: the faces an agent waits through — a GraphQL subscription (graphql-ws) and the /v1
 * long-poll wait — with several hundred sessions spread over several accounts: the time from an
 * ingest request (`POST /v1/synthetic/sms`) to the waiting client's answer, beside a bare loopback
 * HTTP round trip (`GET /healthz` on the same server) measured in the same run; and the server's
 * memory per idle waiting client.
 *
 * The service runs as a child process (`node src/main.ts`, as in production) on the embedded
 * database in a fresh temporary DATA_DIR, or on LATCHKEY_BENCH_DATABASE_URL when it is set. Before
 * the child starts, this process opens the same database to create the accounts and their API keys
 * (createApiKey, as test/helpers/principals.ts does), then closes it. Everything else is real HTTP
 * and WebSocket traffic over loopback.
 *
 * Sessions: ACCOUNTS accounts with KEYS_PER_ACCOUNT keys each; every phase spreads its sessions
 * evenly over the accounts and uses its own key of each account, so no key comes near the limits
 * (50 active sessions, 60 provisions a minute per credential).
 *
 * Memory: VmRSS of the server process from /proc/<pid>/status (median of several samples, no forced
 * GC) and V8 heap used from the server's /metrics, before and after opening IDLE idle subscribers,
 * then IDLE idle long-poll waits on top of them; the growth divided by IDLE. Aim: ≤ 32 KiB each.
 * Writes bench/results/faces.json and .md (project root as cwd).
 * Run: `node bench/suites/faces.ts` (Node 24) or `npm run bench -- faces`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { scopes } from '../../src/auth/principal.ts';
import { openDatabase } from '../../src/db/orm.ts';
import { createApiKey } from '../../src/domain/agents/api-keys.ts';
import { Account } from '../../src/entities/account.ts';
import { freshPostgres } from '../lib/postgres.ts';
import { type Stats, stats } from '../lib/stats.ts';

const ACCOUNTS = 10;
/** Per session phase: 300 sessions, 30 per account, on a key of their own per account. */
const SESSIONS = 300;
/** Idle waiters of each kind for the memory measurement. */
const IDLE = 300;
/** Warm-up sessions (not measured), spread over the accounts on a key of their own. */
const WARM = 20;
/** Keys per account: memory subscribers, memory waits, latency subscribers, latency waits, warm-up. */
const KEYS_PER_ACCOUNT = 5;
/** Each measured session receives this many codes in turn (the subscriptions stay open). */
const ROUNDS = 2;
const BASELINE_REQUESTS = 1000;
const SETTLE_MS = 2000;
const MEMORY_SAMPLES = 7;
const ANSWER_TIMEOUT_MS = 15_000;
const AIM_BYTES_PER_IDLE_WAITER = 32 * 1024;
const SUITE_DEADLINE_MS = 170_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

// ---------------------------------------------------------------------------------------------
// The server: credentials first (in this process), then the service as a child process.

interface Server {
  child: ChildProcess;
  baseUrl: string;
  wsUrl: string;
  /** keys[account][k] */
  keys: string[][];
  database: string;
  stderr: () => string;
}

async function createCredentials(databaseUrl: string | undefined, dataDir: string) {
  const db = await openDatabase({ databaseUrl, dataDir, log: () => {} });
  try {
    const keys: string[][] = [];
    for (let a = 0; a < ACCOUNTS; a++) {
      const em = db.orm.em.fork() as EntityManager;
      const account = em.create(Account, { name: `bench faces ${a}`, tier: 'per_session' });
      await em.flush();
      const accountKeys: string[] = [];
      for (let k = 0; k < KEYS_PER_ACCOUNT; k++) {
        const { secret } = await createApiKey(
          db.orm.em.fork() as EntityManager,
          { accountId: account.id, name: `bench key ${k}`, scopes, createdBy: 'bench' },
          new Set(scopes),
        );
        accountKeys.push(secret);
      }
      keys.push(accountKeys);
    }
    return keys;
  } finally {
    await db.close();
  }
}

async function startServer(dataDir: string, databaseUrl: string | undefined): Promise<Server> {
  const keys = await createCredentials(databaseUrl, dataDir);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: baseUrl,
    SMTP_PORT: '0',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    FREE_TIER_MONTHLY_SESSIONS: '1000000',
    // Enough synthetic numbers for every session of the run: the fictional 555-0100…0199 block
    // in 100 area codes.
    NUMBER_POOL: Array.from(
      { length: 100 },
      (_, i) => `+1${300 + i}5550100-+1${300 + i}5550199`,
    ).join(','),
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const child = spawn(process.execPath, ['src/main.ts'], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const server: Server = {
    child,
    baseUrl,
    wsUrl: `ws://127.0.0.1:${port}/graphql`,
    keys,
    database: databaseUrl
      ? 'PostgreSQL (a fresh database on LATCHKEY_BENCH_DATABASE_URL)'
      : 'embedded PGlite (DATA_DIR)',
    stderr: () => stderr,
  };
  const deadline = performance.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${stderr}`);
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      await response.text();
      if (response.ok) return server;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) throw new Error(`server did not start: ${stderr}`);
    await sleep(100);
  }
}

async function stopServer(server: Server) {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------
// Sessions and deliveries over /v1.

interface BenchSession {
  id: string;
  number: string;
  key: string;
}

async function openSession(server: Server, key: string): Promise<BenchSession> {
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
async function openSessions(server: Server, keyIndex: number, count: number) {
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

async function deliver(server: Server, session: BenchSession, code: string) {
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

async function healthz(server: Server) {
  const response = await fetch(`${server.baseUrl}/healthz`);
  await response.text();
  if (!response.ok) throw new Error(`healthz answered ${response.status}`);
}

async function loopbackRoundTrips(server: Server): Promise<Stats> {
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

interface Arrival {
  at: number;
  code: string | null;
}

interface Subscriber {
  session: BenchSession;
  client: Client;
  connected: Promise<void>;
  next(): Promise<Arrival>;
  close(): Promise<void>;
}

const SUBSCRIPTION = `subscription ($id: ID!) { sessionVerdicts(sessionId: $id) { otpCode receivedAt } }`;

function subscribe(server: Server, session: BenchSession): Subscriber {
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

interface Wait {
  session: BenchSession;
  /** True once the request has answered or failed. */
  settled(): boolean;
  answered: Promise<Arrival & { verdict: string }>;
  abort(): void;
}

function armWait(server: Server, session: BenchSession): Wait {
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

// ---------------------------------------------------------------------------------------------
// Memory of the server process.

function rssBytes(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error('no VmRSS in /proc status');
  return Number(match[1]) * 1024;
}

async function heapUsedBytes(server: Server) {
  const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
  const match = /^nodejs_heap_size_used_bytes\s+([0-9.e+]+)/m.exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

interface MemorySample {
  rss: number;
  /** Lowest and highest of the RSS readings: the noise at this step. */
  rssMin: number;
  rssMax: number;
  heapUsed: number;
}

/** Median of several RSS readings (no forced GC), then the median of three heap readings. */
async function sampleMemory(server: Server): Promise<MemorySample> {
  const rss: number[] = [];
  for (let i = 0; i < MEMORY_SAMPLES; i++) {
    rss.push(rssBytes(server.child.pid!));
    await sleep(150);
  }
  const heap: number[] = [];
  for (let i = 0; i < 3; i++) {
    heap.push(await heapUsedBytes(server));
    await sleep(100);
  }
  return {
    rss: median(rss),
    rssMin: Math.min(...rss),
    rssMax: Math.max(...rss),
    heapUsed: median(heap),
  };
}

const perWaiter = (before: MemorySample, after: MemorySample, n: number) => ({
  rssBytes: Math.round((after.rss - before.rss) / n),
  heapUsedBytes: Math.round((after.heapUsed - before.heapUsed) / n),
});

async function idleMemory(
  server: Server,
  subscriberSessions: BenchSession[],
  waitSessions: BenchSession[],
) {
  await sleep(SETTLE_MS);
  const before = await sampleMemory(server);

  const subscribers = subscriberSessions.map((s) => subscribe(server, s));
  await withTimeout(
    Promise.all(subscribers.map((s) => s.connected)),
    30_000,
    'idle subscribers connecting',
  );
  await sleep(SETTLE_MS);
  const withSubscribers = await sampleMemory(server);

  const waits = waitSessions.map((s) => armWait(server, s));
  await sleep(SETTLE_MS);
  const withWaits = await sampleMemory(server);

  // None of them may have been answered or failed while idle.
  const endedEarly = waits.filter((w) => w.settled()).length;

  await Promise.all(subscribers.map((s) => s.close()));
  for (const w of waits) w.abort();
  await Promise.allSettled(waits.map((w) => w.answered));
  return {
    idle: subscriberSessions.length,
    before,
    withSubscribers,
    withSubscribersAndWaits: withWaits,
    perSubscriber: perWaiter(before, withSubscribers, subscriberSessions.length),
    perWait: perWaiter(withSubscribers, withWaits, waitSessions.length),
    waitsEndedWhileIdle: endedEarly,
  };
}

// ---------------------------------------------------------------------------------------------
// Latency: ingest request → answer, one delivery at a time, every other waiter pending.

interface LatencyResult {
  pendingClients: number;
  ingestToAnswer: Stats;
  ingestAcknowledged: Stats;
  loopbackInterleaved: Stats;
}

async function subscriptionLatency(
  server: Server,
  sessions: BenchSession[],
  warm: BenchSession[],
): Promise<LatencyResult> {
  const subscribers = [...warm, ...sessions].map((s) => subscribe(server, s));
  try {
    await withTimeout(
      Promise.all(subscribers.map((s) => s.connected)),
      30_000,
      'subscribers connecting',
    );
    await sleep(SETTLE_MS);
    const measured = subscribers.slice(warm.length);
    const answer: number[] = [];
    const ack: number[] = [];
    const loopback: number[] = [];
    const once = async (subscriber: Subscriber, record: boolean) => {
      const code = String(codeCounter++);
      const arrival = subscriber.next();
      const started = performance.now();
      const acknowledged = deliver(server, subscriber.session, code).then(
        () => performance.now() - started,
      );
      const got = await withTimeout(arrival, ANSWER_TIMEOUT_MS, 'subscriber');
      const ackMs = await acknowledged;
      if (got.code !== code) throw new Error(`subscriber got ${got.code}, expected ${code}`);
      const roundTrip = performance.now();
      await healthz(server);
      if (record) {
        answer.push(got.at - started);
        ack.push(ackMs);
        loopback.push(performance.now() - roundTrip);
      }
    };
    for (let round = 0; round < 2; round++) {
      for (const s of subscribers.slice(0, warm.length)) await once(s, false);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of measured) await once(s, true);
    }
    return {
      pendingClients: subscribers.length,
      ingestToAnswer: stats(answer),
      ingestAcknowledged: stats(ack),
      loopbackInterleaved: stats(loopback),
    };
  } finally {
    await Promise.allSettled(subscribers.map((s) => s.close()));
  }
}

async function waitLatency(
  server: Server,
  sessions: BenchSession[],
  warm: BenchSession[],
): Promise<LatencyResult> {
  const all = [...warm, ...sessions];
  const waits = new Map<string, Wait>(all.map((s) => [s.id, armWait(server, s)]));
  try {
    await sleep(SETTLE_MS);
    const answer: number[] = [];
    const ack: number[] = [];
    const loopback: number[] = [];
    const once = async (session: BenchSession, record: boolean, rearm: boolean) => {
      const wait = waits.get(session.id)!;
      const code = String(codeCounter++);
      const started = performance.now();
      const acknowledged = deliver(server, session, code).then(() => performance.now() - started);
      const got = await withTimeout(wait.answered, ANSWER_TIMEOUT_MS, 'wait');
      const ackMs = await acknowledged;
      if (got.verdict !== 'otp_code' || got.code !== code) {
        throw new Error(`wait got ${got.verdict} ${got.code}, expected ${code}`);
      }
      if (rearm) waits.set(session.id, armWait(server, session));
      const roundTrip = performance.now();
      await healthz(server);
      if (record) {
        answer.push(got.at - started);
        ack.push(ackMs);
        loopback.push(performance.now() - roundTrip);
      }
    };
    for (let round = 0; round < 2; round++) {
      for (const s of warm) await once(s, false, true);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of sessions) await once(s, true, round < ROUNDS - 1);
    }
    return {
      pendingClients: all.length,
      ingestToAnswer: stats(answer),
      ingestAcknowledged: stats(ack),
      loopbackInterleaved: stats(loopback),
    };
  } finally {
    for (const w of waits.values()) w.abort();
    await Promise.allSettled([...waits.values()].map((w) => w.answered));
  }
}

// ---------------------------------------------------------------------------------------------

export async function run() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'latchkey-bench-faces-'));
  let server: Server | undefined;
  const guard = setTimeout(() => {
    console.error('faces: suite deadline passed; stopping the server');
    server?.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(1);
  }, SUITE_DEADLINE_MS);
  const killOnExit = () => server?.child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const postgres = process.env.LATCHKEY_BENCH_DATABASE_URL ? await freshPostgres() : undefined;
  try {
    server = await startServer(dataDir, postgres?.url);
    const started = performance.now();
    // Every session of the run, opened before the first memory reading. Key index per phase:
    // 0 idle subscribers, 1 idle waits, 2 measured subscribers, 3 measured waits, 4 warm-up.
    const idleSubscriberSessions = await openSessions(server, 0, IDLE);
    const idleWaitSessions = await openSessions(server, 1, IDLE);
    const subscriberSessions = await openSessions(server, 2, SESSIONS);
    const waitSessions = await openSessions(server, 3, SESSIONS);
    const warm = await openSessions(server, 4, WARM * 2);
    const openSeconds = (performance.now() - started) / 1000;
    const warmSubscribers = warm.slice(0, WARM);
    const warmWaits = warm.slice(WARM);

    // Warm the subscription and wait paths (code loading, JIT) before the memory readings.
    const warmSubs = warmSubscribers.map((s) => subscribe(server!, s));
    await withTimeout(Promise.all(warmSubs.map((s) => s.connected)), 30_000, 'warm-up');
    const warmWaitClients = warmWaits.map((s) => armWait(server!, s));
    await sleep(500);
    for (const s of warmSubs) {
      const code = String(codeCounter++);
      const arrival = s.next();
      await deliver(server, s.session, code);
      await withTimeout(arrival, ANSWER_TIMEOUT_MS, 'warm-up subscriber');
    }
    for (const w of warmWaitClients) {
      await deliver(server, w.session, String(codeCounter++));
      await withTimeout(w.answered, ANSWER_TIMEOUT_MS, 'warm-up wait');
    }
    await Promise.all(warmSubs.map((s) => s.close()));

    const memory = await idleMemory(server, idleSubscriberSessions, idleWaitSessions);
    const baseline = await loopbackRoundTrips(server);
    const subscription = await subscriptionLatency(server, subscriberSessions, warmSubscribers);
    const wait = await waitLatency(server, waitSessions, warmWaits);
    const baselineAfter = await loopbackRoundTrips(server);

    const ratio = (a: number, b: number) => Math.round((a / b) * 10) / 10;
    const result = {
      suite: 'faces',
      at: new Date().toISOString(),
      node: process.version,
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      database: server.database,
      events: 'in-process',
      method: {
        server: 'child process: node src/main.ts (LOG_LEVEL=silent)',
        accounts: ACCOUNTS,
        keysPerAccount: KEYS_PER_ACCOUNT,
        sessionsPerLatencyPhase: SESSIONS,
        warmUpSessionsPerPhase: WARM,
        codesPerSession: ROUNDS,
        idleWaitersPerKind: IDLE,
        sessionsOpened: 2 * IDLE + 2 * SESSIONS + 2 * WARM,
        secondsToOpenThem: Math.round(openSeconds * 10) / 10,
        ingest: 'POST /v1/synthetic/sms (JSON, x-api-key) over loopback',
        subscriber:
          'graphql-ws client (ws), one connection per session, subscription sessionVerdicts',
        wait: 'POST /v1/sessions/:id/wait {timeout: 60}, one per session, re-armed after each answer',
        baseline: 'GET /healthz on the same server, same fetch client, sequential',
      },
      loopbackRoundTripMs: baseline,
      loopbackRoundTripAfterMs: baselineAfter,
      subscription,
      wait,
      ratios: {
        subscriptionP50: ratio(subscription.ingestToAnswer.p50, baseline.p50),
        subscriptionP99: ratio(subscription.ingestToAnswer.p99, baseline.p99),
        waitP50: ratio(wait.ingestToAnswer.p50, baseline.p50),
        waitP99: ratio(wait.ingestToAnswer.p99, baseline.p99),
      },
      memory,
      aimBytesPerIdleWaiter: AIM_BYTES_PER_IDLE_WAITER,
      aimMet: {
        subscriber: memory.perSubscriber.rssBytes <= AIM_BYTES_PER_IDLE_WAITER,
        wait: memory.perWait.rssBytes <= AIM_BYTES_PER_IDLE_WAITER,
      },
    };
    write(result);
    return result;
  } finally {
    clearTimeout(guard);
    if (server) await stopServer(server);
    process.removeListener('exit', killOnExit);
    rmSync(dataDir, { recursive: true, force: true });
    await postgres?.drop();
  }
}

type Result = Awaited<ReturnType<typeof run>>;

function row(name: string, s: Stats) {
  return `| ${name} | ${s.samples} | ${s.p50} | ${s.p90} | ${s.p99} | ${s.max} |`;
}

const kib = (bytes: number) => `${Math.round((bytes / 1024) * 10) / 10} KiB`;
const mib = (bytes: number) => `${Math.round((bytes / 1048576) * 10) / 10} MiB`;

function step(name: string, s: MemorySample) {
  return `| ${name} | ${mib(s.rss)} | ${mib(s.rssMin)}–${mib(s.rssMax)} | ${mib(s.heapUsed)} |`;
}

function write(r: Result) {
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/faces.json', `${JSON.stringify(r, null, 2)}\n`);
  const m = r.memory;
  const md = `# Benchmark: faces (subscription and /v1 wait, ingest → waiting client)

${r.at} · Node ${r.node} · ${r.cpu} × ${r.cores} · ${r.database} · events ${r.events}

Method: the service runs as a child process (\`node src/main.ts\`), reached over loopback.
${r.method.accounts} accounts with ${r.method.keysPerAccount} API keys each; every phase spreads its
sessions evenly over the accounts on a key of its own per account. ${r.method.sessionsOpened} sms_otp
sessions are opened through \`POST /v1/sessions\` before any measurement (${r.method.secondsToOpenThem} s).
Each delivery is a \`POST /v1/synthetic/sms\` to a session's number, sent one at a time; the time is
from sending that request to the waiting client's answer (which may come before the ingest
response). Subscriptions: one graphql-ws connection per session (\`sessionVerdicts\`),
${r.subscription.pendingClients} open; each session receives ${r.method.codesPerSession} codes in turn.
Waits: one pending \`POST /v1/sessions/:id/wait\` (\`timeout: 60\`) per session,
${r.wait.pendingClients} pending, re-armed after each answer. Warm-up deliveries are not counted.
The loopback baseline is \`GET /healthz\` on the same server with the same client: once before the
latency phases, once after, and one round trip after every delivery (interleaved).

| measure (ms) | samples | p50 | p90 | p99 | max |
|---|---:|---:|---:|---:|---:|
${row('loopback GET /healthz (before)', r.loopbackRoundTripMs)}
${row('loopback GET /healthz (after)', r.loopbackRoundTripAfterMs)}
${row('subscription: ingest → subscriber got the code', r.subscription.ingestToAnswer)}
${row('subscription phase: ingest acknowledged', r.subscription.ingestAcknowledged)}
${row('subscription phase: loopback, interleaved', r.subscription.loopbackInterleaved)}
${row('/v1 wait: ingest → wait answered', r.wait.ingestToAnswer)}
${row('/v1 wait phase: ingest acknowledged', r.wait.ingestAcknowledged)}
${row('/v1 wait phase: loopback, interleaved', r.wait.loopbackInterleaved)}

Against the loopback round trip (before): subscription p50 ${r.ratios.subscriptionP50}×, p99
${r.ratios.subscriptionP99}×; /v1 wait p50 ${r.ratios.waitP50}×, p99 ${r.ratios.waitP99}×.

## Memory per idle waiting client

Server process VmRSS (/proc/<pid>/status, median of ${MEMORY_SAMPLES} readings, no forced GC) and V8
heap used (the server's /metrics), after ${SETTLE_MS / 1000} s of settling at each step: before, after
${m.idle} idle subscribers (one WebSocket each), and after ${m.idle} idle long-poll waits on top.

| step | RSS (median) | RSS readings (min–max) | heap used |
|---|---:|---:|---:|
${step('before', m.before)}
${step(`+ ${m.idle} idle subscribers`, m.withSubscribers)}
${step(`+ ${m.idle} idle waits`, m.withSubscribersAndWaits)}

| per idle client | RSS | heap used | aim (RSS ≤ ${kib(r.aimBytesPerIdleWaiter)}) |
|---|---:|---:|---|
| subscriber (graphql-ws) | ${kib(m.perSubscriber.rssBytes)} | ${kib(m.perSubscriber.heapUsedBytes)} | ${r.aimMet.subscriber ? 'met' : 'not met'} |
| /v1 wait (long-poll) | ${kib(m.perWait.rssBytes)} | ${kib(m.perWait.heapUsedBytes)} | ${r.aimMet.wait ? 'met' : 'not met'} |

Reading these: without a forced GC, heap used includes garbage not yet collected (the connection
and subscribe work itself allocates), and RSS moves in whole pages and V8 heap growth steps, so a
per-client figure is an estimate of the order of magnitude (±several KiB), not an exact cost.
On the embedded database the server's RSS also holds PGlite (WASM memory, which only grows); each
new waiter's first look at its session runs queries there, so part of the growth can be the
database's, not the waiter's.
${m.waitsEndedWhileIdle ? `\n**Note:** ${m.waitsEndedWhileIdle} idle waits ended while idle; the wait figure is suspect.\n` : ''}`;
  writeFileSync('bench/results/faces.md', md);
}

if (import.meta.main) {
  const result = await run();
  console.log(
    `faces: subscription ingest→answer p50 ${result.subscription.ingestToAnswer.p50} ms, p99 ${result.subscription.ingestToAnswer.p99} ms; wait p50 ${result.wait.ingestToAnswer.p50} ms, p99 ${result.wait.ingestToAnswer.p99} ms (loopback p50 ${result.loopbackRoundTripMs.p50}, p99 ${result.loopbackRoundTripMs.p99} ms); idle RSS/subscriber ${Math.round(result.memory.perSubscriber.rssBytes / 1024)} KiB, /wait ${Math.round(result.memory.perWait.rssBytes / 1024)} KiB`,
  );
}
