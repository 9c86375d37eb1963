/**
 * Benchmark: many concurrent waiters on one instance (issue 16) — the server's memory per pending
 * long-poll wait (`POST /v1/sessions/:id/wait`) and the verdict latency while they wait, at 100,
 * 1,000 and 10,000 waiters.
 *
 * The service runs as a child process (`node src/main.ts`) on a fresh PostgreSQL database
 * (LATCHKEY_BENCH_DATABASE_URL or LATCHKEY_TEST_DATABASE_URL; else the embedded database).
 * Sessions are sms_otp on synthetic numbers, 50 per API key (the active-session limit). At each
 * level the waits are armed (each with `timeout: 300`), the server settles, its VmRSS is read
 * (median of several readings, no forced GC), then DELIVERIES signed Twilio webhooks go one at a
 * time to waiting sessions: the time from sending each to its waiter's answer. Memory per waiter
 * is the RSS growth over the idle server divided by the waiters pending. Aims: ≤ 32 KiB a waiter,
 * verdict p99 ≤ 100 ms at 10,000.
 * Writes bench/results/waiters.json and .md. Run: `npm run bench -- waiters`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http, { Agent } from 'node:http';
import { cpus, loadavg } from 'node:os';
import twilioWebhooks from 'twilio/lib/webhooks/webhooks.js';
import { freshPostgres } from '../lib/postgres.ts';
import { createAccounts, type Service, sleep, startService, tempDataDir } from '../lib/service.ts';
import { type Stats, stats } from '../lib/stats.ts';

const LEVELS = [100, 1000, 10_000];
const DELIVERIES = 100;
const SETTLE_MS = 3000;
const READINGS = 7;
const TOKEN = 'bench-twilio-auth-token';
const AIM_BYTES = 32 * 1024;
const AIM_P99_MS = 100;

const round = (n: number, digits = 0) => Math.round(n * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

function rssBytes(pid: number) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) * 1024;
}

async function rss(pid: number) {
  const readings: number[] = [];
  for (let i = 0; i < READINGS; i++) {
    readings.push(rssBytes(pid));
    await sleep(200);
  }
  return median(readings);
}

interface Session {
  id: string;
  number: string;
  key: string;
}

/** Waits go over node:http with a socket each (undici would pool them behind its own limits). */
const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

function post(url: string, headers: Record<string, string>, body: string) {
  return fetch(url, { method: 'POST', headers, body }).then(async (response) => ({
    status: response.status,
    text: await response.text(),
  }));
}

async function openAll(service: Service, keys: string[], count: number): Promise<Session[]> {
  const sessions: Session[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < count) {
        const i = next++;
        const key = keys[Math.floor(i / 50)]!;
        const answer = await post(
          `${service.baseUrl}/v1/sessions`,
          { 'content-type': 'application/json', 'x-api-key': key },
          JSON.stringify({ channel: 'sms_otp', number_type: 'synthetic' }),
        );
        if (answer.status !== 201)
          throw new Error(`open answered ${answer.status}: ${answer.text}`);
        const body = JSON.parse(answer.text) as { session_id: string; number: string };
        sessions[i] = { id: body.session_id, number: body.number, key };
      }
    }),
  );
  return sessions;
}

/** A pending long-poll wait over node:http; resolves with the time its answer arrived. */
function wait(service: Service, session: Session): Promise<{ at: number; body: string }> {
  const url = new URL(`${service.baseUrl}/v1/sessions/${session.id}/wait`);
  return new Promise((resolve, reject) => {
    const request = requestOf(url, session.key, (status, body) => {
      if (status !== 200) reject(new Error(`wait answered ${status}: ${body}`));
      else resolve({ at: performance.now(), body });
    });
    request.on('error', reject);
    request.end(JSON.stringify({ timeout: 300 }));
  });
}

function requestOf(url: URL, key: string, done: (status: number, body: string) => void) {
  return http.request(
    url,
    {
      method: 'POST',
      agent,
      headers: { 'content-type': 'application/json', 'x-api-key': key },
    },
    (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => done(response.statusCode ?? 0, body));
    },
  );
}

let sid = 0;
async function deliver(service: Service, to: string, code: string) {
  const params = {
    AccountSid: 'AC00000000000000000000000000000000',
    Body: `Your Acme verification code is ${code}. It expires in 10 minutes.`,
    From: '+14155550100',
    MessageSid: `SM${(sid++).toString(16).padStart(32, '0')}`,
    To: to,
  };
  const url = `${service.baseUrl}/ingest/sms/twilio`;
  const answer = await post(
    url,
    {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilioWebhooks.getExpectedTwilioSignature(TOKEN, url, params),
    },
    new URLSearchParams(params).toString(),
  );
  if (answer.status !== 200) throw new Error(`ingest answered ${answer.status}`);
}

export async function run() {
  const pg = await freshPostgres();
  const data = tempDataDir();
  const top = LEVELS.at(-1)!;
  // Every level's waiters plus the sessions the deliveries answer, 50 per key.
  const total = top + DELIVERIES * LEVELS.length;
  const [account] = await createAccounts(
    { databaseUrl: pg?.url, dataDir: data.dir },
    1,
    Math.ceil(total / 50),
  );
  const service = await startService({
    root: process.cwd(),
    dataDir: data.dir,
    databaseUrl: pg?.url,
    env: {
      TWILIO_AUTH_TOKEN: TOKEN,
      // 12,000 fictional numbers: 555-0100…0199 in 120 area codes.
      NUMBER_POOL: Array.from(
        { length: 120 },
        (_, i) => `+1${300 + i}5550100-+1${300 + i}5550199`,
      ).join(','),
    },
  });
  const levels: {
    waiters: number;
    rssMiB: number;
    bytesPerWaiter: number;
    verdictMs: Stats;
    load: number;
  }[] = [];
  try {
    const pid = service.child.pid!;
    const started = performance.now();
    const sessions = await openAll(service, account!.keys, total);
    const openSeconds = (performance.now() - started) / 1000;
    // Warm the wait and ingest paths on the last sessions (not counted).
    const warm = sessions.slice(total - 20);
    for (const [i, session] of warm.entries()) {
      const answered = wait(service, session);
      await sleep(20);
      await deliver(service, session.number, String(900000 + i));
      await answered;
    }
    await sleep(SETTLE_MS);
    const idle = await rss(pid);
    const pending: Promise<unknown>[] = [];
    let armed = 0;
    let measured = top;
    for (const level of LEVELS) {
      // Arm waits up to `level` (idle ones: never sent anything until the end).
      while (armed < level) pending.push(wait(service, sessions[armed++]!).catch(() => {}));
      await sleep(SETTLE_MS + level / 5);
      const resident = await rss(pid);
      // Deliveries to sessions of their own, each armed just before it is sent.
      const verdict: number[] = [];
      for (let i = 0; i < DELIVERIES; i++) {
        const session = sessions[measured++]!;
        const answered = wait(service, session);
        await sleep(5);
        const t = performance.now();
        await deliver(service, session.number, String(100000 + i));
        const { at } = await answered;
        verdict.push(at - t);
      }
      levels.push({
        waiters: level,
        rssMiB: round(resident / 2 ** 20, 1),
        bytesPerWaiter: Math.round((resident - idle) / level),
        verdictMs: stats(verdict),
        load: round(loadavg()[0]!, 2),
      });
      console.log(
        `waiters: ${level} pending, ${round((resident - idle) / level / 1024, 1)} KiB each, verdict p99 ${stats(verdict).p99} ms`,
      );
    }
    const result = {
      suite: 'waiters',
      at: new Date().toISOString(),
      node: process.version,
      cpu: cpus()[0]?.model ?? 'unknown',
      cores: cpus().length,
      database: pg ? 'PostgreSQL' : 'embedded PGlite',
      sessionsOpened: total,
      secondsToOpenThem: round(openSeconds, 1),
      idleRssMiB: round(idle / 2 ** 20, 1),
      levels,
      aims: { bytesPerWaiter: AIM_BYTES, verdictP99Ms: AIM_P99_MS },
    };
    write(result);
    return result;
  } finally {
    await service.stop();
    agent.destroy();
    data.remove();
    await pg?.drop();
  }
}

function write(r: Awaited<ReturnType<typeof run>>) {
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/waiters.json', `${JSON.stringify(r, null, 2)}\n`);
  const rows = r.levels
    .map(
      (l) =>
        `| ${l.waiters} | ${l.rssMiB} MiB | ${round(l.bytesPerWaiter / 1024, 1)} KiB | ${l.bytesPerWaiter <= AIM_BYTES ? 'met' : 'not met'} | ${l.verdictMs.p50} | ${l.verdictMs.p99} | ${l.verdictMs.p99 <= AIM_P99_MS ? 'met' : 'not met'} | ${l.load} |`,
    )
    .join('\n');
  writeFileSync(
    'bench/results/waiters.md',
    `# Benchmark: concurrent waiters on one instance (issue 16)

${r.at} · Node ${r.node} · ${r.cpu} × ${r.cores} · ${r.database} · client and server on the same machine

Method: the header of \`bench/suites/waiters.ts\`. ${r.sessionsOpened} sms_otp sessions opened first
(${r.secondsToOpenThem} s); idle server RSS ${r.idleRssMiB} MiB after a warm-up. At each level the
pending long-poll waits are held open while ${DELIVERIES} signed Twilio webhooks go one at a time to
other waiting sessions (verdict: from sending the webhook to its waiter's answer).

| pending waits | server RSS | RSS growth per wait | aim ≤ 32 KiB | verdict p50 (ms) | verdict p99 (ms) | aim p99 ≤ 100 ms | 1-min load |
|---:|---:|---:|---|---:|---:|---|---:|
${rows}

RSS is read without a forced GC: a per-wait figure includes garbage not yet collected and moves in
whole pages, so at 100 waiters it is an order of magnitude, at 10,000 a good estimate. WebSocket
subscribers are measured by the faces suite (300 idle subscribers).
`,
  );
}

if (import.meta.main) {
  await run();
}
