/**
 * Benchmark: challenge sessions — the time from an ingest request to the waiting agent's answer,
 * with several hundred waiters pending, beside a bare loopback HTTP round trip measured in the
 * same run; and sessions opened and closed per second.
 *
 * The service runs in this process (buildApp, as the tests do) on the embedded database, or on
 * DATABASE_URL when it is set (and REDIS_URL for a shared event bus). Ingest requests are real
 * HTTP requests to Twilio's webhook (signed, form-encoded) over loopback; the waiters are the
 * domain's `waitForVerdict`, as the /v1, MCP and GraphQL faces will call it. Deliveries are sent
 * one at a time (latency, not a queue), each to a different waiting session, while at least
 * IDLE_WAITERS other waiters stay pending; a burst of concurrent deliveries is reported too.
 * Aim: p99 ingest→answer within 10 ms on the 2-core machine.
 * Writes bench/results/sessions.json and .md (project root as cwd).
 * Run: `node bench/suites/sessions.ts` (Node 24) or `npm run bench -- sessions`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import twilioWebhooks from 'twilio/lib/webhooks/webhooks.js';
import { type App, buildApp } from '../../src/app.ts';
import type { Principal } from '../../src/auth/principal.ts';
import { loadConfig } from '../../src/config.ts';
import { withEm } from '../../src/domain/context.ts';
import { closeSession } from '../../src/domain/sessions/close.ts';
import { openSession } from '../../src/domain/sessions/open.ts';
import type { SessionView } from '../../src/domain/sessions/views.ts';
import { waitForVerdict } from '../../src/domain/verdicts/wait.ts';
import { newId } from '../../src/entities/base.ts';
import { newPrincipal } from '../lib/principals.ts';
import { type Stats, stats } from '../lib/stats.ts';

/** Waiters that stay pending through the whole sequential phase (never sent anything). */
const IDLE_WAITERS = 600;
const WARMUP = 20;
const DELIVERIES = 1000;
const BURST = 100;
const BASELINE_REQUESTS = 1000;
const CHURN_MS = 5000;
const CHURN_WORKERS = 8;
const AIM_P99_MS = 10;
const TOKEN = 'bench-twilio-auth-token';

/** The same HTTP client as the ingest requests, against a server that does nothing. */
async function loopbackRoundTrips(): Promise<Stats> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const body = new URLSearchParams({ Body: 'x'.repeat(60), From: '+14155550100' }).toString();
  const post = () =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    }).then((r) => r.text());
  for (let i = 0; i < 200; i++) await post();
  const samples: number[] = [];
  for (let i = 0; i < BASELINE_REQUESTS; i++) {
    const started = performance.now();
    await post();
    samples.push(performance.now() - started);
  }
  await new Promise((resolve) => server.close(resolve));
  return stats(samples);
}

async function startService(): Promise<{ app: App; baseUrl: string }> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    ...process.env,
    PORT: String(port),
    PUBLIC_BASE_URL: baseUrl,
    SMTP_PORT: '0',
    LOG_LEVEL: 'silent',
    TWILIO_AUTH_TOKEN: TOKEN,
    DATA_DIR: path.join(tmpdir(), 'latchkey-bench'),
    // Released numbers rest 10 minutes (the default quarantine), so the churn needs a big pool:
    // the fictional 555-0100…0199 block in 100 area codes.
    NUMBER_POOL: Array.from(
      { length: 100 },
      (_, i) => `+1${300 + i}5550100-+1${300 + i}5550199`,
    ).join(','),
  });
  const app = await buildApp(config, { embeddedInMemory: !config.databaseUrl });
  await app.start(port);
  return { app, baseUrl };
}

const ctx = (app: App) => withEm(app.challenges, app.db.orm.em.fork() as never);

/** Opens `count` sessions, 50 per credential (the concurrency limit). */
async function openMany(app: App, count: number) {
  const opened: { principal: Principal; session: SessionView }[] = [];
  for (let i = 0; i < count; i += 50) {
    const principal = await newPrincipal(app);
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, () => openSession(ctx(app), principal)),
    );
    for (const session of batch) opened.push({ principal, session });
  }
  return opened;
}

function signedDelivery(baseUrl: string, to: string, code: string) {
  const params = {
    AccountSid: 'AC00000000000000000000000000000000',
    Body: `Your Acme verification code is ${code}. It expires in 10 minutes.`,
    From: '+14155550100',
    MessageSid: `SM${newId('x').slice(2, 34)}`,
    To: to,
  };
  const url = `${baseUrl}/ingest/sms/twilio`;
  const signature = twilioWebhooks.getExpectedTwilioSignature(TOKEN, url, params);
  const body = new URLSearchParams(params).toString();
  return () =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signature,
      },
      body,
    }).then(async (response) => {
      await response.text();
      if (response.status !== 200) throw new Error(`ingest answered ${response.status}`);
    });
}

interface Waiter {
  answeredAt: Promise<number>;
  code: string;
  send: () => Promise<void>;
}

function armWaiters(
  app: App,
  baseUrl: string,
  sessions: { principal: Principal; session: SessionView }[],
): Waiter[] {
  return sessions.map(({ principal, session }, i) => {
    const code = String(100000 + i);
    const answeredAt = waitForVerdict(ctx(app), principal, session.id, { timeout: 120 }).then(
      (result) => {
        const at = performance.now();
        if (result.verdict !== 'otp_code' || result.otpCode !== code) {
          throw new Error(`waiter ${i} got ${result.verdict}`);
        }
        return at;
      },
    );
    return { answeredAt, code, send: signedDelivery(baseUrl, session.number!, code) };
  });
}

async function ingestToAnswer(app: App, baseUrl: string) {
  const sessions = await openMany(app, WARMUP + DELIVERIES + BURST + IDLE_WAITERS);
  const waiters = armWaiters(app, baseUrl, sessions);
  // Let every waiter finish its first look at the database and settle into waiting.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const pendingAtStart = app.challenges.waiters.size;

  // Warm-up on waiters that are not measured.
  for (const waiter of waiters.slice(0, WARMUP)) {
    await waiter.send();
    await waiter.answeredAt;
  }
  const sequential: number[] = [];
  const ackAfter: number[] = [];
  for (const waiter of waiters.slice(WARMUP, WARMUP + DELIVERIES)) {
    const started = performance.now();
    await waiter.send();
    ackAfter.push(performance.now() - started);
    sequential.push((await waiter.answeredAt) - started);
  }
  const pendingAtEnd = app.challenges.waiters.size;

  const burstWaiters = waiters.slice(WARMUP + DELIVERIES, WARMUP + DELIVERIES + BURST);
  const burstStart = performance.now();
  await Promise.all(burstWaiters.map((w) => w.send()));
  const burst = (await Promise.all(burstWaiters.map((w) => w.answeredAt))).map(
    (at) => at - burstStart,
  );

  // The rest were never sent anything: end them so the app can stop.
  const rest = waiters.slice(WARMUP + DELIVERIES + BURST);
  app.challenges.waiters.close();
  await Promise.allSettled(rest.map((w) => w.answeredAt));
  return {
    pendingAtStart,
    pendingAtEnd,
    sequential: stats(sequential),
    acknowledgement: stats(ackAfter),
    burst: stats(burst),
  };
}

/** Sessions opened and closed per second: workers loop open → close, a new credential per 50. */
async function churn(app: App) {
  let done = 0;
  const deadline = performance.now() + CHURN_MS;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CHURN_WORKERS }, async () => {
      let principal = await newPrincipal(app);
      let used = 0;
      while (performance.now() < deadline) {
        // 60 provisions a minute per credential: a fresh credential well before that.
        if (used === 50) {
          principal = await newPrincipal(app);
          used = 0;
        }
        const session = await openSession(ctx(app), principal);
        await closeSession(ctx(app), principal, session.id);
        used += 1;
        done += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    workers: CHURN_WORKERS,
    seconds: Math.round(seconds * 100) / 100,
    openedAndClosed: done,
    perSecond: Math.round(done / seconds),
  };
}

export async function run() {
  const baseline = await loopbackRoundTrips();
  const { app, baseUrl } = await startService();
  try {
    const latency = await ingestToAnswer(app, baseUrl);
    const throughput = await churn(app);
    const result = {
      suite: 'sessions',
      at: new Date().toISOString(),
      node: process.version,
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      database: app.db.embedded ? 'embedded PGlite (in memory)' : 'PostgreSQL (DATABASE_URL)',
      events: app.challenges.events.shared ? 'Redis' : 'in-process',
      method: {
        waiters: WARMUP + DELIVERIES + BURST + IDLE_WAITERS,
        deliveries: DELIVERIES,
        burst: BURST,
        ingest: 'POST /ingest/sms/twilio (signed, form-encoded) over loopback',
        waiter: 'waitForVerdict in the service process',
      },
      loopbackRoundTripMs: baseline,
      ingestToAnswerMs: latency.sequential,
      ingestAcknowledgementMs: latency.acknowledgement,
      burstIngestToAnswerMs: latency.burst,
      waitersPendingAtStart: latency.pendingAtStart,
      waitersPendingAtEnd: latency.pendingAtEnd,
      sessionsOpenedAndClosed: throughput,
      aimP99Ms: AIM_P99_MS,
      aimMet: latency.sequential.p99 <= AIM_P99_MS,
    };
    write(result);
    return result;
  } finally {
    await app.stop();
  }
}

function row(name: string, s: Stats) {
  return `| ${name} | ${s.samples} | ${s.p50} | ${s.p90} | ${s.p99} | ${s.max} |`;
}

function write(result: Awaited<ReturnType<typeof run>> extends infer R ? R : never) {
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/sessions.json', `${JSON.stringify(result, null, 2)}\n`);
  const r = result as {
    at: string;
    node: string;
    cpu: string;
    cores: number;
    database: string;
    events: string;
    loopbackRoundTripMs: Stats;
    ingestToAnswerMs: Stats;
    ingestAcknowledgementMs: Stats;
    burstIngestToAnswerMs: Stats;
    waitersPendingAtStart: number;
    waitersPendingAtEnd: number;
    sessionsOpenedAndClosed: {
      workers: number;
      seconds: number;
      openedAndClosed: number;
      perSecond: number;
    };
    aimMet: boolean;
  };
  const ratio = (s: Stats) => Math.round((s.p99 / r.loopbackRoundTripMs.p99) * 10) / 10;
  const md = `# Benchmark: sessions (ingest → waiting agent)

${r.at} · Node ${r.node} · ${r.cpu} × ${r.cores} · ${r.database} · events ${r.events}

Method: the service runs in this process; ${WARMUP + DELIVERIES + BURST + IDLE_WAITERS} sessions are opened and as many
agents wait on them (\`waitForVerdict\`). Each delivery is a signed Twilio webhook request over
loopback to a different waiting session; the time is from sending the request to that waiter's
answer. Sequential deliveries: one at a time, ${r.waitersPendingAtStart} waiters pending at the
start and ${r.waitersPendingAtEnd} at the end. Burst: ${BURST} deliveries sent at once. The bare
loopback round trip uses the same HTTP client against a server that does nothing.

| measure (ms) | samples | p50 | p90 | p99 | max |
|---|---:|---:|---:|---:|---:|
${row('bare loopback HTTP round trip', r.loopbackRoundTripMs)}
${row('ingest request → waiter answered', r.ingestToAnswerMs)}
${row('ingest request → carrier acknowledged', r.ingestAcknowledgementMs)}
${row(`burst of ${BURST}: start → each waiter answered`, r.burstIngestToAnswerMs)}

Ingest→answer p99 is ${ratio(r.ingestToAnswerMs)}× the bare round trip's p99. Aim (p99 ≤ ${AIM_P99_MS} ms): ${r.aimMet ? 'met' : 'not met'}.

Reading the tail: the machine is shared (other work runs beside the benchmark), so the loopback
baseline's own p99 shows the noise floor of this run. On the embedded database, a fresh in-memory
PGlite stalls once per 16 MB of WAL while it zero-fills a new segment (observed: one 150–250 ms
answer near the 32 MB mark; gone with \`wal_init_zero = off\`), which lands in this tail when the
sequential phase crosses such a boundary. The rest of the tail is garbage collection under load.

Sessions opened and closed: ${r.sessionsOpenedAndClosed.openedAndClosed} in ${r.sessionsOpenedAndClosed.seconds} s by ${r.sessionsOpenedAndClosed.workers} concurrent workers — **${r.sessionsOpenedAndClosed.perSecond} per second** (each an open with its number assignment, usage event and limits, then a close with the number's release).
`;
  writeFileSync('bench/results/sessions.md', md);
}

if (import.meta.main) {
  const result = await run();
  console.log(
    `sessions: ingest→answer p50 ${result.ingestToAnswerMs.p50} ms, p99 ${result.ingestToAnswerMs.p99} ms (loopback p99 ${result.loopbackRoundTripMs.p99} ms); ${result.sessionsOpenedAndClosed.perSecond} sessions opened+closed/s`,
  );
}
