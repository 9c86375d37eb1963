/**
 * Benchmark: the webhook outbox's queue mechanism, chosen by measurement (issue 12).
 *
 * Three contenders on the same PostgreSQL server, in one run, each with 2 concurrent workers
 * (separate connection pools, 10 jobs in flight each) and a job that does nothing, so only the
 * queue is measured:
 * - `skip-locked`: our outbox, the worker's own claim and record statements
 *   (src/domain/webhooks/worker.ts: per-endpoint lateral pick `FOR UPDATE SKIP LOCKED`, leased;
 *   one UPDATE per finished job) on the `webhook_delivery`/`webhook_endpoint` tables of the
 *   migration, jobs spread over 20 endpoints. Workers poll every 250 ms, and the enqueuing
 *   instance wakes its own worker after the insert, as the service does after a commit.
 * - `pg-boss`: a queue with `notify: true`, instances with `useListenNotify`, `batchSize` 10 and
 *   the smallest polling interval it allows (0.5 s), `burstWhenBatchFull` on.
 * - `graphile-worker`: `run()` with `concurrency` 10 per runner (LISTEN/NOTIFY is built in).
 *
 * Measures: (1) jobs claimed and completed per second, draining 5,000 jobs queued beforehand,
 * timed until the database holds none unfinished; (2) enqueue → claim latency (p50/p99) for 300
 * jobs enqueued one at a time every 20 ms while the workers run (claim: the handler starts).
 *
 * Needs PostgreSQL: LATCHKEY_BENCH_DATABASE_URL (or LATCHKEY_TEST_DATABASE_URL) names a server on
 * which a throw-away database is created and dropped. Writes bench/results/queue.json and .md.
 * Run: `LATCHKEY_BENCH_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/test npm run bench -- queue`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { Logger, makeWorkerUtils, type Runner, run } from 'graphile-worker';
import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { DELIVERY_ID_SQL } from '../../src/domain/webhooks/events.ts';
import { freshPostgres } from '../lib/postgres.ts';
import { type Stats, stats } from '../lib/stats.ts';

const JOBS = 5_000;
const LATENCY_JOBS = 300;
const LATENCY_GAP_MS = 20;
const WORKERS = 2;
const CONCURRENCY = 10;
const ENDPOINTS = 20;

type OnJob = (enqueuedAt: number | undefined) => void;

/** Our claim statement's own cost during the drain: where the SKIP LOCKED row's time goes. */
const claims: { ms: number[]; rows: number[] } = { ms: [], rows: [] };

interface Contender {
  name: string;
  /** How it is configured, for the report. */
  setup: string;
  prepare(url: string): Promise<void>;
  enqueueBulk(n: number): Promise<void>;
  startWorkers(onJob: OnJob): Promise<void>;
  enqueueOne(enqueuedAt: number): Promise<void>;
  unfinished(): Promise<number>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Our outbox: the migration's tables and the worker's statements.

/** The webhook tables and indexes exactly as the migration creates them. */
function outboxDdl(): string[] {
  const migration = readFileSync('src/db/migrations/20261125100400-webhooks.ts', 'utf8');
  return [...migration.matchAll(/`(create (?:table|index) "webhook_[^`]+)`/g)].map((m) => m[1]!);
}

/** src/domain/webhooks/worker.ts `#claim`, with pg's $n placeholders. */
const CLAIM_SQL = `with busy as (
    select endpoint_id, count(*)::int as n from webhook_delivery
    where lease_until is not null and lease_until > $1 and status = 'pending'
    group by endpoint_id),
  picked as (
    select d.id, d.next_attempt_at
    from webhook_endpoint e
    left join busy b on b.endpoint_id = e.id
    cross join lateral (
      select d.id, d.next_attempt_at from webhook_delivery d
      where d.endpoint_id = e.id and d.status = 'pending' and d.next_attempt_at <= $1
        and (d.lease_until is null or d.lease_until <= $1)
      order by d.next_attempt_at
      limit greatest(0, $2 - coalesce(b.n, 0))
      for update skip locked) d
    where e.disabled_at is null
    order by d.next_attempt_at
    limit $3)
  update webhook_delivery d set lease_until = $4, attempts = d.attempts + 1, updated_at = $1
  from picked, webhook_endpoint e
  where d.id = picked.id and e.id = d.endpoint_id
  returning d.id, d.data, d.lease_until`;

/** src/domain/webhooks/worker.ts `#record` for a success. */
const RECORD_SQL = `with d as (
    update webhook_delivery set status = 'delivered', delivered_at = $1, next_attempt_at = null,
      lease_until = null, last_status_code = 200, last_error = null, response_excerpt = 'ok',
      updated_at = $1
    where id = $2 and lease_until = $3
    returning endpoint_id)
  update webhook_endpoint e set failing_since = null, updated_at = $1
  from d where e.id = d.endpoint_id and e.failing_since is not null`;

const ENQUEUE_SQL = `insert into webhook_delivery (id, created_at, updated_at, endpoint_id,
    account_id, event_type, data, status, attempts, next_attempt_at)
  select ${DELIVERY_ID_SQL}, now(), now(), 'whe_' || ((i % ${ENDPOINTS}) + 1), 'acc_bench',
    'session.verdict', $2::jsonb, 'pending', 0, now()
  from generate_series(1, $1::int) as i`;

class OutboxWorker {
  #inFlight = 0;
  #pumping = false;
  #again = false;
  #stopped = false;
  #timer?: NodeJS.Timeout;
  readonly pool: pg.Pool;
  readonly onJob: OnJob;
  constructor(pool: pg.Pool, onJob: OnJob) {
    this.pool = pool;
    this.onJob = onJob;
  }
  start() {
    this.#timer = setInterval(() => this.wake(), 250);
    this.wake();
  }
  wake() {
    if (this.#stopped) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumping = true;
    void this.#pump();
  }
  async #pump() {
    try {
      do {
        this.#again = false;
        const free = CONCURRENCY - this.#inFlight;
        if (free <= 0) break;
        const now = new Date();
        const began = performance.now();
        const { rows } = await this.pool.query<{
          id: string;
          data: { at?: number };
          lease_until: Date;
        }>(CLAIM_SQL, [now, 4, free, new Date(now.getTime() + 15_000)]);
        claims.ms.push(performance.now() - began);
        claims.rows.push(rows.length);
        for (const row of rows) {
          this.#inFlight += 1;
          this.onJob(row.data.at);
          void this.pool.query(RECORD_SQL, [new Date(), row.id, row.lease_until]).finally(() => {
            this.#inFlight -= 1;
            this.wake();
          });
        }
        if (rows.length === free) this.#again = true;
      } while (this.#again && !this.#stopped);
    } finally {
      this.#pumping = false;
    }
  }
  async stop() {
    this.#stopped = true;
    clearInterval(this.#timer);
    while (this.#inFlight > 0 || this.#pumping) await sleep(10);
  }
}

function skipLocked(): Contender {
  let admin: pg.Pool;
  const workers: OutboxWorker[] = [];
  const pools: pg.Pool[] = [];
  return {
    name: 'skip-locked (ours)',
    setup:
      "the worker's claim and record statements on the migration's tables; 20 endpoints (≤ 4 leases each); poll 250 ms; the enqueuing instance wakes its worker",
    async prepare(url) {
      admin = new pg.Pool({ connectionString: url, max: 4 });
      for (const sql of outboxDdl()) await admin.query(sql);
      for (let i = 1; i <= ENDPOINTS; i++) {
        await admin.query(
          `insert into webhook_endpoint (id, created_at, updated_at, account_id, url, secret)
           values ($1, now(), now(), 'acc_bench', 'https://receiver.example/hook', '\\x00')`,
          [`whe_${i}`],
        );
      }
      for (let w = 0; w < WORKERS; w++) {
        pools.push(new pg.Pool({ connectionString: url, max: CONCURRENCY }));
      }
    },
    async enqueueBulk(n) {
      await admin.query(ENQUEUE_SQL, [n, '{}']);
    },
    async startWorkers(onJob) {
      for (const pool of pools) workers.push(new OutboxWorker(pool, onJob));
      for (const worker of workers) worker.start();
    },
    async enqueueOne(at) {
      await admin.query(ENQUEUE_SQL, [1, JSON.stringify({ at })]);
      // The service wakes its own worker after the commit that queued a delivery.
      workers[0]!.wake();
    },
    async unfinished() {
      const { rows } = await admin.query<{ n: number }>(
        "select count(*)::int as n from webhook_delivery where status = 'pending'",
      );
      return rows[0]!.n;
    },
    async stop() {
      await Promise.all(workers.map((w) => w.stop()));
      await Promise.all([...pools, admin].map((p) => p.end()));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// pg-boss

function pgBoss(): Contender {
  const QUEUE = 'bench';
  let producer: PgBoss;
  const bosses: PgBoss[] = [];
  let admin: pg.Pool;
  const make = (url: string) =>
    new PgBoss({
      connectionString: url,
      max: CONCURRENCY,
      useListenNotify: true,
      supervise: false,
      schedule: false,
    });
  return {
    name: 'pg-boss',
    setup:
      'queue with notify: true, useListenNotify, batchSize 10, pollingIntervalSeconds 0.5 (its minimum), burstWhenBatchFull',
    async prepare(url) {
      admin = new pg.Pool({ connectionString: url, max: 2 });
      producer = make(url);
      producer.on('error', (error) => console.error('pg-boss:', error));
      await producer.start();
      await producer.createQueue(QUEUE, { notify: true });
      for (let w = 0; w < WORKERS; w++) {
        const boss = make(url);
        boss.on('error', (error) => console.error('pg-boss:', error));
        await boss.start();
        bosses.push(boss);
      }
    },
    async enqueueBulk(n) {
      for (let i = 0; i < n; i += 500) {
        const size = Math.min(500, n - i);
        await producer.insert(
          QUEUE,
          Array.from({ length: size }, () => ({ data: {} })),
        );
      }
    },
    async startWorkers(onJob) {
      for (const boss of bosses) {
        await boss.work<{ at?: number }>(
          QUEUE,
          { batchSize: CONCURRENCY, pollingIntervalSeconds: 0.5, burstWhenBatchFull: true },
          async (jobs) => {
            for (const job of jobs) onJob(job.data?.at);
          },
        );
      }
    },
    async enqueueOne(at) {
      await producer.send(QUEUE, { at });
    },
    async unfinished() {
      const { rows } = await admin.query<{ n: number }>(
        "select count(*)::int as n from pgboss.job where name = $1 and state in ('created', 'retry', 'active')",
        [QUEUE],
      );
      return rows[0]!.n;
    },
    async stop() {
      await Promise.all(bosses.map((b) => b.stop({ graceful: true })));
      await producer.stop({ graceful: true });
      await admin.end();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// graphile-worker

function graphileWorker(): Contender {
  let url: string;
  let utils: Awaited<ReturnType<typeof makeWorkerUtils>>;
  const runners: Runner[] = [];
  let admin: pg.Pool;
  return {
    name: 'graphile-worker',
    setup:
      'run() with concurrency 10 per runner, LISTEN/NOTIFY (built in), pollInterval 2 s (default)',
    async prepare(connectionString) {
      url = connectionString;
      admin = new pg.Pool({ connectionString, max: 2 });
      utils = await makeWorkerUtils({ connectionString });
      await utils.migrate();
    },
    async enqueueBulk(n) {
      for (let i = 0; i < n; i += 500) {
        const size = Math.min(500, n - i);
        await utils.addJobs(
          Array.from({ length: size }, () => ({ identifier: 'deliver', payload: {} })),
        );
      }
    },
    async startWorkers(onJob) {
      for (let w = 0; w < WORKERS; w++) {
        runners.push(
          await run({
            connectionString: url,
            concurrency: CONCURRENCY,
            maxPoolSize: CONCURRENCY + 2,
            noHandleSignals: true,
            logger: quietLogger,
            taskList: {
              deliver: async (payload) => {
                onJob((payload as { at?: number }).at);
              },
            },
          }),
        );
      }
    },
    async enqueueOne(at) {
      await utils.addJob('deliver', { at });
    },
    async unfinished() {
      const { rows } = await admin.query<{ n: number }>(
        'select count(*)::int as n from graphile_worker.jobs',
      );
      return rows[0]!.n;
    },
    async stop() {
      await Promise.all(runners.map((r) => r.stop()));
      await utils.release();
      await admin.end();
    },
  };
}

// graphile-worker logs every job at info level; the bench keeps warnings and errors only.
const quietLogger = new Logger(() => (level, message) => {
  if (level === 'error' || level === 'warning')
    console.error(`graphile-worker ${level}: ${message}`);
});

// ---------------------------------------------------------------------------------------------

interface Figures {
  name: string;
  setup: string;
  jobs: number;
  seconds: number;
  perSecond: number;
  latencyMs: Stats;
  /** skip-locked only: the claim statement's duration and rows per claim, during the drain. */
  claim?: { ms: Stats; rowsPerClaim: number };
}

async function measure(make: () => Contender, url: string): Promise<Figures> {
  const contender = make();
  await contender.prepare(url);
  await contender.enqueueBulk(JOBS);
  let claimed = 0;
  let latencies: number[] | undefined;
  const started = performance.now();
  await contender.startWorkers((at) => {
    claimed += 1;
    if (latencies && at !== undefined) latencies.push(performance.now() - at);
  });
  while ((await contender.unfinished()) > 0) await sleep(20);
  const seconds = (performance.now() - started) / 1000;
  const claim = claims.ms.length
    ? {
        ms: stats(claims.ms),
        rowsPerClaim:
          Math.round((claims.rows.reduce((a, b) => a + b, 0) / claims.rows.length) * 10) / 10,
      }
    : undefined;
  if (claimed < JOBS) throw new Error(`${contender.name}: ${claimed} of ${JOBS} jobs claimed`);

  // Latency: the workers are running and idle; jobs arrive one at a time.
  await sleep(1_000);
  latencies = [];
  for (let i = 0; i < LATENCY_JOBS; i++) {
    await contender.enqueueOne(performance.now());
    await sleep(LATENCY_GAP_MS);
  }
  const deadline = Date.now() + 30_000;
  while (latencies.length < LATENCY_JOBS && Date.now() < deadline) await sleep(20);
  if (latencies.length < LATENCY_JOBS) {
    throw new Error(`${contender.name}: ${latencies.length} of ${LATENCY_JOBS} latency jobs seen`);
  }
  await contender.stop();
  return {
    name: contender.name,
    setup: contender.setup,
    jobs: JOBS,
    seconds: Math.round(seconds * 100) / 100,
    perSecond: Math.round(JOBS / seconds),
    latencyMs: stats(latencies),
    ...(claim ? { claim } : {}),
  };
}

async function main() {
  const postgres = await freshPostgres();
  if (!postgres) {
    // pg-boss and graphile-worker run on PostgreSQL only, so there is no embedded variant: say so
    // and leave the committed figures as they are, rather than fail `npm run bench` everywhere.
    console.log(
      'queue: not run, it needs PostgreSQL (LATCHKEY_BENCH_DATABASE_URL or LATCHKEY_TEST_DATABASE_URL); bench/results/queue.md is unchanged',
    );
    process.exit(0);
  }
  const results: Figures[] = [];
  let serverVersion = '';
  try {
    const probe = new pg.Client({ connectionString: postgres.url });
    await probe.connect();
    serverVersion = (await probe.query<{ server_version: string }>('show server_version')).rows[0]!
      .server_version;
    await probe.end();
    // Each contender gets a database of its own, so no one's tables or triggers slow another.
    for (const make of [skipLocked, pgBoss, graphileWorker]) {
      const own = await freshPostgres();
      try {
        const figures = await measure(make, own!.url);
        console.log(
          `${figures.name}: ${figures.perSecond} jobs/s; enqueue → claim p50 ${figures.latencyMs.p50} ms, p99 ${figures.latencyMs.p99} ms`,
        );
        results.push(figures);
      } finally {
        await own!.drop();
      }
    }
  } finally {
    await postgres.drop();
  }

  const result = {
    at: new Date().toISOString(),
    node: process.version,
    cpus: `${cpus()[0]?.model ?? 'unknown'} × ${cpus().length}`,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    database: `PostgreSQL ${serverVersion} (loopback)`,
    workers: WORKERS,
    concurrencyPerWorker: CONCURRENCY,
    versions: {
      'pg-boss': JSON.parse(readFileSync('node_modules/pg-boss/package.json', 'utf8')).version,
      'graphile-worker': JSON.parse(
        readFileSync('node_modules/graphile-worker/package.json', 'utf8'),
      ).version,
    },
    results,
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/queue.json', `${JSON.stringify(result, null, 2)}\n`);
  const rows = results
    .map(
      (r) =>
        `| ${r.name} | ${r.jobs} | ${r.seconds} | **${r.perSecond}** | ${r.latencyMs.p50} | ${r.latencyMs.p99} | ${r.latencyMs.max} |`,
    )
    .join('\n');
  const setups = results.map((r) => `- ${r.name}: ${r.setup}.`).join('\n');
  const ours = results.find((r) => r.claim)?.claim;
  const claimLine = ours
    ? `Our claim statement during the drain: p50 ${ours.ms.p50} ms, p99 ${ours.ms.p99} ms, ${ours.rowsPerClaim} rows per claim on average (${ours.ms.samples} claims).`
    : '';
  writeFileSync(
    'bench/results/queue.md',
    `# Benchmark: the webhook outbox's queue (SKIP LOCKED vs pg-boss vs graphile-worker)

${result.at} · Node ${result.node} · ${result.cpus} · ${result.memoryGiB} GiB · ${result.database} ·
pg-boss ${result.versions['pg-boss']} · graphile-worker ${result.versions['graphile-worker']}

${WORKERS} workers (own connection pools, ${CONCURRENCY} jobs in flight each) in one Node process, a job
that does nothing; each contender on a fresh database of its own on the same server.

| queue | jobs | seconds | claimed + completed per second | enqueue → claim p50 (ms) | p99 (ms) | max (ms) |
|---|---:|---:|---:|---:|---:|---:|
${rows}

Throughput: ${JOBS} jobs queued beforehand, drained until the database holds none unfinished.
Latency: ${LATENCY_JOBS} jobs enqueued one at a time every ${LATENCY_GAP_MS} ms while the workers run; claim is
when the job's handler starts.

${setups}

${claimLine}

The machine is shared (2 cores, other work running), so read the ratios between rows, not the
absolute figures. Why we keep the SKIP LOCKED outbox: docs/security/webhooks.md.
`,
  );
}

await main();
process.exit(0);
