/**
 * Benchmark: throughput on the hot paths (issue 16) — sessions opened and closed per second by a
 * fleet of agents under one account, signed Twilio webhooks accepted per second, and the verdict
 * latency a waiting agent sees under a burst of webhooks and one message at a time.
 *
 * The service runs as a child process (`node src/main.ts`) on a fresh PostgreSQL database
 * (LATCHKEY_BENCH_DATABASE_URL or LATCHKEY_TEST_DATABASE_URL) and on the embedded database, and
 * everything is real HTTP over loopback from this process (so the client's own CPU shares the
 * machine's two cores with the server, as it did when the issue's figures were taken).
 *
 * Same-run baseline: with BENCH_BASELINE_REF=<git ref> the same phases run against the service
 * built from that ref (exported with `git archive`), both servers up at once and taking turns
 * phase by phase (open+close in ROUNDS rounds, the order reversed each round), and the report
 * gives ratios. THROUGHPUT_DATABASES=postgres|embedded|both (default both when PostgreSQL
 * is configured). BENCH_CPU_PROF=<dir> starts each server with `--cpu-prof`, one profile per thread
 * in <dir>/<target>. BENCH_ANALYZE=1 runs ANALYZE on each PostgreSQL database after the first
 * open+close round, as autovacuum would have by then on a maintained server (the bench server
 * here runs without it); the service analyzes the embedded database, and a PostgreSQL server's
 * without autovacuum, itself (src/db/analyzer.ts).
 *
 * Phases, each on accounts and keys of its own (the limits are 60 provisions a minute and 50
 * active sessions per credential):
 * - open+close: 32 requests in flight over 48 API keys of one account, email_otp sessions (so the
 *   number pool is not the subject), each worker `POST /v1/sessions` then `DELETE` it;
 * - ingest: 400 active sms_otp sessions; signed Twilio webhooks at 32 in flight, round-robin over
 *   them, each acknowledged only after its message is committed;
 * - burst: 200 agents wait (`POST /v1/sessions/:id/wait`) and 200 webhooks arrive at 32 in flight;
 *   time from each webhook's send to its agent's answer. One burst of the same size warms up (its
 *   figures are kept apart as the process's cold first burst), then BURST_REPEATS bursts are
 *   measured, each on sessions of its own; the verdict figures pool their samples, and each
 *   burst's own p99 is given too;
 * - one at a time: the same with one message in flight, beside `GET /healthz` round trips on the
 *   same server (the bare loopback round trip), measured in the same phase.
 * The client collects its own garbage just before each measured window and reports the pauses of
 * its own that still fell inside one (bench/lib/client-gc.ts): the client times every request, so
 * its pauses would be counted as the service's.
 * Writes bench/results/throughput.json and bench/results/throughput-figures.md (project root as cwd).
 * Run: `npm run bench -- throughput`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import twilioWebhooks from 'twilio/lib/webhooks/webhooks.js';
import { defaultPoolMax } from '../../src/config.ts';
import {
  addPauses,
  type ClientPauses,
  clientPauseWindow,
  collectClientGarbage,
} from '../lib/client-gc.ts';
import { cpuMeter } from '../lib/cpu.ts';
import { clientKind, send, sendJson } from '../lib/http.ts';
import { calibrate, describeCalibration } from '../lib/machine.ts';
import {
  analyzeDatabase,
  type BenchDatabase,
  describeStatistics,
  freshPostgres,
} from '../lib/postgres.ts';
import { type GcTotals, gcBetween, serverGcTotals } from '../lib/server-gc.ts';
import {
  type Account,
  baselineTree,
  createAccounts,
  type Service,
  sleep,
  startService,
  tempDataDir,
} from '../lib/service.ts';
import { type Stats, stats } from '../lib/stats.ts';

const IN_FLIGHT = 32;
/** Open+close rounds per target, alternating between baseline and current. */
const ROUNDS = 3;
const FLEET_KEYS = 48;
/** Pairs per key in the open+close phase: under the 60 provisions a minute per credential. */
const PAIRS_PER_KEY = 50;
const INGEST_SESSIONS = 400;
/** BENCH_ANALYZE=1: ANALYZE each PostgreSQL database after the first open+close round. */
const ANALYZE = process.env.BENCH_ANALYZE === '1';
const INGEST_WEBHOOKS = 4000;
const BURST = 200;
/** Waiters of the warm-up burst before the measured ones: the same size as they are. */
const BURST_WARM_UP = BURST;
/** Measured bursts after the warm-up, each on its own sessions (4 keys of 50 each). */
const BURST_REPEATS = 5;
const ONE_AT_A_TIME = 200;
const LOOPBACK_SAMPLES = 1000;
const TOKEN = 'bench-twilio-auth-token';
const AIMS = { pairsPerSecond: 500, openP99Ms: 50, webhooksPerSecond: 1000, burstP99Ms: 50 };

// ---------------------------------------------------------------------------------------------
// Requests.

async function open(service: Service, key: string, channel: 'sms_otp' | 'email_otp') {
  const answer = await sendJson(
    'POST',
    `${service.baseUrl}/v1/sessions`,
    key,
    channel === 'sms_otp' ? { channel, number_type: 'synthetic' } : { channel },
  );
  if (answer.status !== 201)
    throw new Error(`open answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return { id: answer.body.session_id as string, number: answer.body.number as string | null, key };
}

async function close(service: Service, key: string, id: string) {
  const answer = await sendJson('DELETE', `${service.baseUrl}/v1/sessions/${id}`, key);
  if (answer.status !== 200)
    throw new Error(`close answered ${answer.status}: ${JSON.stringify(answer.body)}`);
}

let sid = 0;
function twilioWebhook(service: Service, to: string, code: string) {
  const params = {
    AccountSid: 'AC00000000000000000000000000000000',
    Body: `Your Acme verification code is ${code}. It expires in 10 minutes.`,
    From: '+14155550100',
    MessageSid: `SM${process.pid.toString(16)}${(sid++).toString(16).padStart(24, '0')}`,
    To: to,
  };
  const url = `${service.baseUrl}/ingest/sms/twilio`;
  const signature = twilioWebhooks.getExpectedTwilioSignature(TOKEN, url, params);
  const body = new URLSearchParams(params).toString();
  return async () => {
    const answer = await send(
      'POST',
      url,
      { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      body,
    );
    if (answer.status !== 200) throw new Error(`ingest answered ${answer.status}`);
  };
}

/** Runs `count` tasks with `inFlight` at a time; returns the seconds it took. */
async function pool(count: number, inFlight: number, task: (i: number) => Promise<void>) {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(inFlight, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
  return (performance.now() - started) / 1000;
}

/** Opens `count` sessions spread over `keys` (at most 50 each), 32 at a time. */
async function openMany(
  service: Service,
  keys: string[],
  count: number,
  channel: 'sms_otp' | 'email_otp',
) {
  const sessions: { id: string; number: string | null; key: string }[] = [];
  await pool(count, IN_FLIGHT, async (i) => {
    sessions[i] = await open(service, keys[i % keys.length]!, channel);
  });
  return sessions;
}

const round = (n: number, digits = 0) => Math.round(n * 10 ** digits) / 10 ** digits;

// ---------------------------------------------------------------------------------------------
// Phases.

async function openClose(service: Service, fleet: Account, meter: Meter) {
  // Warm-up on the two spare keys (not counted): JIT, connection pool, plan caches.
  await pool(100, IN_FLIGHT, async (i) => {
    const key = fleet.keys[FLEET_KEYS + (i % 2)]!;
    const session = await open(service, key, 'email_otp');
    await close(service, key, session.id);
  });
  const openMs: number[] = [];
  const closeMs: number[] = [];
  const pairs = FLEET_KEYS * PAIRS_PER_KEY;
  collectClientGarbage();
  const done = await meter();
  const paused = clientPauseWindow();
  const seconds = await pool(pairs, IN_FLIGHT, async (i) => {
    const key = fleet.keys[i % FLEET_KEYS]!;
    let t = performance.now();
    const session = await open(service, key, 'email_otp');
    openMs.push(performance.now() - t);
    t = performance.now();
    await close(service, key, session.id);
    closeMs.push(performance.now() - t);
  });
  const ended = performance.now();
  const cpu = await done(pairs);
  return {
    pairs,
    cpuPerPair: cpu,
    seconds: round(seconds, 2),
    pairsPerSecond: round(pairs / seconds),
    clientPauses: paused(ended),
    openMs: stats(openMs),
    closeMs: stats(closeMs),
  };
}

async function ingest(service: Service, account: Account, meter: Meter) {
  const sessions = await openMany(service, account.keys, INGEST_SESSIONS, 'sms_otp');
  const send = (i: number) =>
    twilioWebhook(service, sessions[i % sessions.length]!.number!, String(100000 + (i % 900000)));
  // Warm-up (not counted).
  await pool(200, IN_FLIGHT, (i) => send(i)());
  const ackMs: number[] = [];
  collectClientGarbage();
  const done = await meter();
  const paused = clientPauseWindow();
  const seconds = await pool(INGEST_WEBHOOKS, IN_FLIGHT, async (i) => {
    const deliver = send(i);
    const t = performance.now();
    await deliver();
    ackMs.push(performance.now() - t);
  });
  const ended = performance.now();
  const cpu = await done(INGEST_WEBHOOKS);
  return {
    sessions: INGEST_SESSIONS,
    cpuPerWebhook: cpu,
    webhooks: INGEST_WEBHOOKS,
    seconds: round(seconds, 2),
    webhooksPerSecond: round(INGEST_WEBHOOKS / seconds),
    clientPauses: paused(ended),
    acknowledgedMs: stats(ackMs),
  };
}

/** Arms one long-poll wait per session; resolves each with the time its answer arrived. */
function armWaits(service: Service, sessions: { id: string; key: string }[], codes: string[]) {
  return sessions.map((session, i) =>
    sendJson('POST', `${service.baseUrl}/v1/sessions/${session.id}/wait`, session.key, {
      timeout: 120,
    }).then((answer) => {
      const at = performance.now();
      if (answer.status !== 200 || answer.body.otp_code !== codes[i]) {
        throw new Error(`wait ${i} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      }
      return at;
    }),
  );
}

/** One burst: `count` agents wait, then a webhook for each arrives, IN_FLIGHT at a time. */
async function burstOf(service: Service, keys: string[], count: number, base: number) {
  const sessions = await openMany(service, keys, count, 'sms_otp');
  const codes = sessions.map((_, i) => String(base + i));
  const answered = armWaits(service, sessions, codes);
  await sleep(1500);
  const gcBefore = await serverGcTotals(service.baseUrl);
  collectClientGarbage();
  const paused = clientPauseWindow();
  const sentAt: number[] = [];
  const seconds = await pool(count, IN_FLIGHT, async (i) => {
    const deliver = twilioWebhook(service, sessions[i]!.number!, codes[i]!);
    sentAt[i] = performance.now();
    await deliver();
  });
  const at = await Promise.all(answered);
  const ended = performance.now();
  const serverGc = gcBetween(gcBefore, await serverGcTotals(service.baseUrl));
  return {
    seconds,
    verdictMs: at.map((t, i) => t - sentAt[i]!),
    clientPauses: paused(ended),
    serverGc,
  };
}

/**
 * A warm-up burst first (not counted as measured), as every other phase warms up: the verdict's
 * hand-off to a waiting agent (answering its long poll) runs nowhere else in this suite, and a
 * process's first bursts ran cold (session 5: p99 69-187 ms against 42-45 ms for the same
 * process's second). The warm-up is as large as a measured burst: with 100 waiters the first
 * 200-waiter burst still ran cold (session 6: its first 32 webhooks took 64-103 ms at the median
 * against 22-43 ms in the bursts after it, in the same process), since it was the first to need
 * that many connections at once. Its figures are reported as the cold first burst.
 */
async function burst(service: Service, account: Account) {
  const keysPerBurst = BURST / 50;
  const cold = await burstOf(service, account.keys.slice(0, keysPerBurst), BURST_WARM_UP, 250000);
  const measured: Awaited<ReturnType<typeof burstOf>>[] = [];
  for (let k = 1; k <= BURST_REPEATS; k++) {
    const keys = account.keys.slice(k * keysPerBurst, (k + 1) * keysPerBurst);
    measured.push(await burstOf(service, keys, BURST, 200000 + k * 1000));
  }
  const perBurstP99 = measured.map((m) => stats(m.verdictMs).p99);
  return {
    waiters: BURST,
    bursts: BURST_REPEATS,
    seconds: measured.map((m) => round(m.seconds, 3)),
    verdictMs: stats(measured.flatMap((m) => m.verdictMs)),
    perBurstP99,
    medianBurstP99: stats(perBurstP99).p50,
    // The first IN_FLIGHT webhooks leave together and are served interleaved, so they all answer
    // near the end of the wave; the rest arrive as earlier ones are acknowledged.
    firstWaveMs: stats(measured.flatMap((m) => m.verdictMs.slice(0, IN_FLIGHT))),
    afterFirstWaveMs: stats(measured.flatMap((m) => m.verdictMs.slice(IN_FLIGHT))),
    coldFirstBurstMs: stats(cold.verdictMs),
    clientPauses: addPauses(measured.map((m) => m.clientPauses)),
    serverGcPerBurst: measured.map((m) => m.serverGc),
  };
}

async function oneAtATime(service: Service, account: Account) {
  const sessions = await openMany(service, account.keys, ONE_AT_A_TIME, 'sms_otp');
  const codes = sessions.map((_, i) => String(300000 + i));
  const answered = armWaits(service, sessions, codes);
  await sleep(1500);
  const healthz = async () => {
    await send('GET', `${service.baseUrl}/healthz`, {});
  };
  for (let i = 0; i < 200; i++) await healthz();
  const loopback: number[] = [];
  for (let i = 0; i < LOOPBACK_SAMPLES; i++) {
    const t = performance.now();
    await healthz();
    loopback.push(performance.now() - t);
  }
  const verdict: number[] = [];
  collectClientGarbage();
  for (let i = 0; i < ONE_AT_A_TIME; i++) {
    const deliver = twilioWebhook(service, sessions[i]!.number!, codes[i]!);
    const t = performance.now();
    await deliver();
    verdict.push((await answered[i]!) - t);
  }
  const loopbackStats = stats(loopback);
  const verdictStats = stats(verdict);
  return {
    loopbackMs: loopbackStats,
    verdictMs: verdictStats,
    p99Ratio: round(verdictStats.p99 / loopbackStats.p99, 1),
  };
}

// ---------------------------------------------------------------------------------------------
// One server: the phases in order.

type Figures = Awaited<ReturnType<typeof measureAll>>[number];
type Meter = ReturnType<typeof cpuMeter>;

interface Target {
  label: string;
  service: Service;
  meter: Meter;
  /** One account of FLEET_KEYS + 2 keys per open+close round (60 provisions a minute per key). */
  fleets: Account[];
  ingestAccount: Account;
  burstAccount: Account;
  singleAccount: Account;
  /** The target's PostgreSQL database; undefined for the embedded one. */
  databaseUrl: string | undefined;
  stop(): Promise<void>;
}

/** Accounts first (in this process), then the service from `root` on its own database. */
async function prepare(root: string, databaseUrl: string | undefined, label: string) {
  const data = tempDataDir();
  const target = { databaseUrl, dataDir: data.dir };
  const fleets: Account[] = [];
  for (let r = 0; r < ROUNDS; r++)
    fleets.push(...(await createAccounts(target, 1, FLEET_KEYS + 2)));
  const [ingestAccount] = await createAccounts(target, 1, INGEST_SESSIONS / 50);
  const [burstAccount] = await createAccounts(target, 1, (BURST * (BURST_REPEATS + 1)) / 50);
  const [singleAccount] = await createAccounts(target, 1, ONE_AT_A_TIME / 50);
  const profileDir = process.env.BENCH_CPU_PROF;
  const service = await startService({
    root,
    dataDir: data.dir,
    databaseUrl,
    nodeArgs: profileDir
      ? // One directory per target; each thread (the event loop, the embedded database's, the mail
        // reader's) writes its own profile there, named by process and thread id.
        ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, label)}`]
      : [],
    env: {
      TWILIO_AUTH_TOKEN: TOKEN,
      ...(process.env.BENCH_DATABASE_POOL_MAX
        ? { DATABASE_POOL_MAX: process.env.BENCH_DATABASE_POOL_MAX }
        : {}),
      // The fictional 555-0100…0199 block in 100 area codes: numbers for every SMS session.
      NUMBER_POOL: Array.from(
        { length: 100 },
        (_, i) => `+1${300 + i}5550100-+1${300 + i}5550199`,
      ).join(','),
    },
  }).catch((error) => {
    data.remove();
    throw error;
  });
  return {
    label,
    service,
    meter: cpuMeter(service.child.pid!, databaseUrl),
    fleets,
    databaseUrl,
    ingestAccount: ingestAccount!,
    burstAccount: burstAccount!,
    singleAccount: singleAccount!,
    stop: async () => {
      await service.stop();
      data.remove();
    },
  } satisfies Target;
}

/**
 * Every phase on every target, alternating between them (the open+close phase in ROUNDS rounds,
 * the order reversed each round), so a change in the machine's load during the run falls on
 * baseline and current alike.
 */
async function measureAll(targets: Target[]) {
  const load = loadavg()[0]!;
  const rounds = new Map<Target, Awaited<ReturnType<typeof openClose>>[]>(
    targets.map((t) => [t, []]),
  );
  for (let r = 0; r < ROUNDS; r++) {
    for (const t of r % 2 ? [...targets].reverse() : targets) {
      const figures = await openClose(t.service, t.fleets[r]!, t.meter);
      rounds.get(t)!.push(figures);
      if (ANALYZE && r === 0 && t.databaseUrl) await analyzeDatabase(t.databaseUrl);
      console.log(
        `  ${t.label} round ${r + 1}: open+close ${figures.pairsPerSecond}/s, open p99 ${figures.openMs.p99} ms`,
      );
    }
  }
  const ingests = new Map<Target, Awaited<ReturnType<typeof ingest>>>();
  for (const t of [...targets].reverse()) {
    ingests.set(t, await ingest(t.service, t.ingestAccount, t.meter));
    console.log(`  ${t.label}: ingest ${ingests.get(t)!.webhooksPerSecond}/s`);
  }
  const bursts = new Map<Target, Awaited<ReturnType<typeof burst>>>();
  for (const t of targets) {
    bursts.set(t, await burst(t.service, t.burstAccount));
    const b = bursts.get(t)!;
    console.log(
      `  ${t.label}: burst verdict p99 ${b.verdictMs.p99} ms pooled, per burst ${b.perBurstP99.join(', ')}, cold first burst ${b.coldFirstBurstMs.p99}`,
    );
  }
  const singles = new Map<Target, Awaited<ReturnType<typeof oneAtATime>>>();
  for (const t of [...targets].reverse()) {
    singles.set(t, await oneAtATime(t.service, t.singleAccount));
    console.log(`  ${t.label}: one at a time p99 ${singles.get(t)!.verdictMs.p99} ms`);
  }
  return targets.map((t) => {
    const all = rounds.get(t)!;
    const median = [...all].sort((a, b) => a.pairsPerSecond - b.pairsPerSecond)[all.length >> 1]!;
    return {
      label: t.label,
      loadAtStart: round(load, 2),
      loadAtEnd: round(loadavg()[0]!, 2),
      openClose: {
        ...median,
        roundsPairsPerSecond: all.map((f) => f.pairsPerSecond),
        cpuPerPair: {
          serverMsPerOp: round(
            all.reduce((n, f) => n + f.cpuPerPair.serverMsPerOp, 0) / all.length,
            3,
          ),
          databaseMsPerOp:
            all[0]!.cpuPerPair.databaseMsPerOp === null
              ? null
              : round(
                  all.reduce((n, f) => n + (f.cpuPerPair.databaseMsPerOp ?? 0), 0) / all.length,
                  3,
                ),
          clientMsPerOp: round(
            all.reduce((n, f) => n + f.cpuPerPair.clientMsPerOp, 0) / all.length,
            3,
          ),
        },
      },
      ingest: ingests.get(t)!,
      burst: bursts.get(t)!,
      oneAtATime: singles.get(t)!,
    };
  });
}

// ---------------------------------------------------------------------------------------------

export async function run() {
  const baselineRef = process.env.BENCH_BASELINE_REF;
  const wantedDatabases = process.env.THROUGHPUT_DATABASES ?? 'both';
  const current = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
    encoding: 'utf8',
  }).trim();
  const baseline = baselineRef ? baselineTree(baselineRef) : undefined;
  const calibrationAtStart = calibrate();
  const runs: Figures[] = [];
  let statistics = 'PostgreSQL not measured';
  try {
    const trees = [
      ...(baseline ? [{ root: baseline.root, name: `baseline ${baseline.commit}` }] : []),
      { root: process.cwd(), name: `current ${current}` },
    ];
    for (const database of ['postgres', 'embedded'] as const) {
      if (wantedDatabases !== 'both' && wantedDatabases !== database) continue;
      const databases: (BenchDatabase | undefined)[] = [];
      const targets: Target[] = [];
      try {
        for (const tree of trees) {
          const pg = database === 'postgres' ? await freshPostgres() : undefined;
          if (database === 'postgres' && !pg) break;
          if (pg) {
            statistics = await describeStatistics(
              pg.url,
              ANALYZE
                ? 'one more ANALYZE after the first open+close round (BENCH_ANALYZE=1)'
                : null,
            );
          }
          databases.push(pg);
          targets.push(
            await prepare(tree.root, pg?.url, `${tree.name.replace(' ', '-')}-${database}`),
          );
        }
        if (targets.length === 0) continue;
        console.log(`throughput: ${targets.map((t) => t.label).join(' vs ')}`);
        runs.push(...(await measureAll(targets)));
      } finally {
        for (const t of targets) await t.stop();
        for (const pg of databases) await pg?.drop();
      }
    }
  } finally {
    baseline?.remove();
  }
  const result = {
    suite: 'throughput',
    at: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: round(totalmem() / 2 ** 30, 1),
    client: clientKind,
    databasePoolMax: Number(process.env.BENCH_DATABASE_POOL_MAX ?? defaultPoolMax()),
    calibration: { atStart: calibrationAtStart, atEnd: calibrate() },
    analyzed: ANALYZE,
    statistics,
    aims: AIMS,
    runs,
  };
  write(result);
  return result;
}

function gcText(gc: GcTotals) {
  const part = (n: { count: number; ms: number }, what: string) =>
    n.count ? `${n.count} ${what} ${n.ms} ms` : '';
  return (
    [part(gc.minor, 'scavenge' + (gc.minor.count === 1 ? '' : 's')), part(gc.major, 'full')]
      .filter(Boolean)
      .join(' + ') || 'none'
  );
}

function pausesText(p: ClientPauses) {
  return p.count === 0
    ? 'none'
    : `${p.count} (${p.totalMs} ms in all, the longest ${p.longestMs} ms)`;
}

function row(name: string, s: Stats) {
  return `| ${name} | ${s.samples} | ${s.p50} | ${s.p90} | ${s.p99} | ${s.max} |`;
}

function write(result: Awaited<ReturnType<typeof run>>) {
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/throughput.json', `${JSON.stringify(result, null, 2)}\n`);
  const sections = result.runs.map(
    (r) => `## ${r.label} (1-minute load ${r.loadAtStart} at start, ${r.loadAtEnd} at end)

- open+close: **${r.openClose.pairsPerSecond} pairs/s** (median of ${ROUNDS} rounds: ${r.openClose.roundsPairsPerSecond.join(', ')}; ${r.openClose.pairs} pairs a round, ${IN_FLIGHT} in flight over ${FLEET_KEYS} keys of one account; latencies below from the median round)
- ingest: **${r.ingest.webhooksPerSecond} signed Twilio webhooks/s** (${r.ingest.webhooks} in ${r.ingest.seconds} s, ${IN_FLIGHT} in flight, ${r.ingest.sessions} active SMS sessions)
- CPU per open+close pair: server ${r.openClose.cpuPerPair.serverMsPerOp} ms, PostgreSQL ${r.openClose.cpuPerPair.databaseMsPerOp === null ? 'in the server process' : `${r.openClose.cpuPerPair.databaseMsPerOp} ms`}, client ${r.openClose.cpuPerPair.clientMsPerOp} ms; per webhook: server ${r.ingest.cpuPerWebhook.serverMsPerOp} ms, PostgreSQL ${r.ingest.cpuPerWebhook.databaseMsPerOp === null ? 'in the server process' : `${r.ingest.cpuPerWebhook.databaseMsPerOp} ms`}, client ${r.ingest.cpuPerWebhook.clientMsPerOp} ms
- burst of ${BURST}: verdict p99 **${r.burst.verdictMs.p99} ms** over ${r.burst.bursts} bursts pooled (each burst's p99: ${r.burst.perBurstP99.join(', ')} ms; median ${r.burst.medianBurstP99}); the process's cold first burst (the warm-up): p99 ${r.burst.coldFirstBurstMs.p99} ms
- one at a time: verdict p99 is **${r.oneAtATime.p99Ratio}×** the bare loopback p99
- the client's own GC pauses inside the measured windows (its heap is collected just before each): ${pausesText(r.openClose.clientPauses)} in the median open+close round; ${pausesText(r.ingest.clientPauses)} in ingest; ${pausesText(r.burst.clientPauses)} over the ${r.burst.bursts} bursts
- the service's GC in each burst (its \`/metrics\`, scraped just before and after): ${r.burst.serverGcPerBurst.map(gcText).join('; ')}

| measure (ms) | samples | p50 | p90 | p99 | max |
|---|---:|---:|---:|---:|---:|
${row('open (POST /v1/sessions)', r.openClose.openMs)}
${row('close (DELETE /v1/sessions/:id)', r.openClose.closeMs)}
${row('webhook acknowledged', r.ingest.acknowledgedMs)}
${row(`burst of ${BURST} (×${BURST_REPEATS}, pooled): webhook sent → its waiter answered`, r.burst.verdictMs)}
${row(`… the first ${IN_FLIGHT} of the burst (sent together)`, r.burst.firstWaveMs)}
${row(`… the other ${BURST - IN_FLIGHT}`, r.burst.afterFirstWaveMs)}
${row(`the cold first burst (warm-up, ${BURST_WARM_UP} waiters)`, r.burst.coldFirstBurstMs)}
${row('one at a time: webhook sent → waiter answered', r.oneAtATime.verdictMs)}
${row('one at a time: bare loopback GET /healthz', r.oneAtATime.loopbackMs)}
`,
  );
  const pairs = (a: Figures, b: Figures) =>
    `| ${a.label} → ${b.label} | ${round(b.openClose.pairsPerSecond / a.openClose.pairsPerSecond, 2)}× | ${round(a.openClose.openMs.p99 / b.openClose.openMs.p99, 2)}× | ${round(b.ingest.webhooksPerSecond / a.ingest.webhooksPerSecond, 2)}× | ${round(a.burst.verdictMs.p99 / b.burst.verdictMs.p99, 2)}× |`;
  const comparisons: string[] = [];
  for (const database of ['postgres', 'embedded']) {
    const same = result.runs.filter((r) => r.label.endsWith(database));
    if (same.length === 2) comparisons.push(pairs(same[0]!, same[1]!));
  }
  const md = `# Benchmark: throughput (issue 16) — figures

${result.at} · Node ${result.node} · ${result.cpu} × ${result.cores} cores · ${result.memoryGiB} GiB · client and server on the same machine · client: ${result.client === 'fetch' ? 'global fetch' : "undici's request API"} · PostgreSQL pool: ${result.databasePoolMax} connections · ${result.statistics}

${describeCalibration(result.calibration.atStart, result.calibration.atEnd)}

Method: see the header of \`bench/suites/throughput.ts\`. Each target is one service process on a fresh
database; the baseline (when measured) and the current tree run side by side and take turns phase
by phase (open+close in ${ROUNDS} rounds, order reversed each round), so load from other work falls
on both.
Findings and what changed: \`bench/results/throughput.md\`.

${comparisons.length ? `| baseline → current | open+close | open p99 (lower is better, shown as speed-up) | ingest | burst verdict p99 (speed-up) |\n|---|---:|---:|---:|---:|\n${comparisons.join('\n')}\n` : ''}
${sections.join('\n')}`;
  writeFileSync('bench/results/throughput-figures.md', md);
}

if (import.meta.main) {
  await run();
}
