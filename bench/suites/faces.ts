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
 * Parts (issue 17: one concern a file): bench/lib/faces/settings.ts (sizes, aims, helpers),
 * server.ts (credentials, the child process), clients.ts (sessions, deliveries, subscribers,
 * waits), memory.ts (idle memory per waiter), latency.ts (the two latency phases); this file runs
 * them in order and writes the report.
 * Writes bench/results/faces.json and .md (project root as cwd).
 * Run: `node bench/suites/faces.ts` (Node 24) or `npm run bench -- faces`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import {
  armWait,
  deliver,
  loopbackRoundTrips,
  nextCode,
  openSessions,
  subscribe,
} from '../lib/faces/clients.ts';
import { subscriptionLatency, waitLatency } from '../lib/faces/latency.ts';
import { idleMemory, type MemorySample } from '../lib/faces/memory.ts';
import { type Server, startServer, stopServer } from '../lib/faces/server.ts';
import {
  ACCOUNTS,
  AIM_BYTES_PER_IDLE_WAITER,
  ANSWER_TIMEOUT_MS,
  IDLE,
  KEYS_PER_ACCOUNT,
  MEMORY_SAMPLES,
  ROUNDS,
  SESSIONS,
  SETTLE_MS,
  SUITE_DEADLINE_MS,
  sleep,
  WARM,
  withTimeout,
} from '../lib/faces/settings.ts';
import { freshPostgres } from '../lib/postgres.ts';
import type { Stats } from '../lib/stats.ts';

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
      const code = nextCode();
      const arrival = s.next();
      await deliver(server, s.session, code);
      await withTimeout(arrival, ANSWER_TIMEOUT_MS, 'warm-up subscriber');
    }
    for (const w of warmWaitClients) {
      await deliver(server, w.session, nextCode());
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
