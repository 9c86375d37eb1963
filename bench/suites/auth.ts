/**
 * Benchmark: token endpoint throughput of the jwt-bearer grant (an agent refreshing with its
 * identity assertion) against oidc-provider's own built-in client_credentials grant, on the same
 * machine, in the same run, through the same host, adapter and database.
 *
 * The built-in grant is switched on only here, for a bench-only confidential client, through
 * registerAuth's `benchClient` option (never reachable from configuration). The server runs in a
 * child process (one core for it, one for the load). The machine is shared, so load from elsewhere
 * comes and goes: short rounds alternate between the two grants, each jwt-bearer round is paired
 * with the client_credentials round next to it, and the median of the per-pair ratios is the
 * result (slow drift cancels within a pair). The server's own CPU time per token is reported too,
 * which other processes disturb far less than throughput. Aim: jwt-bearer ≥ 0.8 × the built-in
 * grant. Measured on the embedded database, and also on PostgreSQL when
 * LATCHKEY_BENCH_DATABASE_URL (or LATCHKEY_TEST_DATABASE_URL) names a server.
 * Writes bench/results/auth.json and bench/results/auth.md (project root as cwd).
 * Run: `node bench/suites/auth.ts` (Node 24) or `npm run bench -- auth`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { freshPostgres } from '../lib/postgres.ts';

const CONCURRENCY = 16;
const WARMUP_MS = 2000;
const PAIRS = 15;
const ROUND_MS = 1000;
const AIM = 0.8;
const jwtBearer = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

interface ServerInfo {
  url: string;
  assertion: string;
  clientId: string;
  clientSecret: string;
}

interface Figures {
  rounds: number[];
  medianPerSecond: number;
  minPerSecond: number;
  maxPerSecond: number;
  /** Median server CPU (user + system) per issued token, in µs. */
  cpuMicrosPerToken: number;
  errors: number;
}

// ---------------------------------------------------------------------------------------------
// The server side (child process): a bench-only host with both grants.

async function serve(databaseUrl: string | undefined) {
  const { loadConfig } = await import('../../src/config.ts');
  const { openDatabase } = await import('../../src/db/orm.ts');
  const { registerAuth } = await import('../../src/auth/index.ts');
  const { createEventBus } = await import('../../src/events/bus.ts');
  const { createRegistration } = await import('../../src/domain/agents/registrations.ts');
  const { Account } = await import('../../src/entities/account.ts');

  const probe = Fastify();
  await probe.listen({ port: 0, host: '127.0.0.1' });
  const port = (probe.server.address() as { port: number }).port;
  await probe.close();
  const url = `http://127.0.0.1:${port}`;

  const config = loadConfig({
    PORT: String(port),
    PUBLIC_BASE_URL: url,
    LOG_LEVEL: 'silent',
    AUTH_SWEEP_INTERVAL: '3600',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const { newSealingKey } = await import('../../src/db/sealing-keys.ts');
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: '',
    embeddedInMemory: true,
    // A throw-away key: the bench database is discarded, and no key file is written.
    sealingKeys: [newSealingKey()],
  });
  const logger = pino({ level: 'silent' });
  const server = Fastify({ loggerInstance: logger as FastifyBaseLogger });
  const benchClient = { clientId: 'bench-cc', clientSecret: randomBytes(24).toString('base64url') };
  const events = await createEventBus();
  const clock = () => new Date();
  const auth = await registerAuth(server, { config, db, logger, events, clock }, { benchClient });

  // One claimed registration, made through the same operations the ceremony uses.
  const em = db.orm.em.fork();
  const account = em.create(Account, { name: 'bench' });
  await em.flush();
  const { registration } = await createRegistration(
    { em, clock },
    { email: 'bench@example.test', scope: 'sessions:read sessions:write' },
    auth.policy,
  );
  await em.execute(
    "update agent_registration set status = 'claimed', account_id = ?, claimed_at = now() where id = ?",
    [account.id, registration.id],
  );
  const { assertion } = await auth.assertions.issue({
    registrationId: registration.id,
    accountId: account.id,
    scope: registration.scope,
    clientId: 'latchkey-agent',
  });

  await server.listen({ port, host: '127.0.0.1' });
  const info: ServerInfo = { url, assertion, ...benchClient };
  process.stdout.write(`${JSON.stringify(info)}\n`);
  process.on('message', () => process.send?.(process.cpuUsage()));
  process.once('SIGTERM', async () => {
    await server.close();
    await db.close();
    process.exit(0);
  });
}

// ---------------------------------------------------------------------------------------------
// The load side (this process).

function startServer(
  databaseUrl: string | undefined,
): Promise<{ child: ChildProcess; info: ServerInfo }> {
  const child = spawn(
    process.execPath,
    [fileURLToPath(import.meta.url), '--serve', databaseUrl ?? 'embedded'],
    { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, info: JSON.parse(line) as ServerInfo });
    });
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
}

type Request = { headers: Record<string, string>; body: string };

function requests(info: ServerInfo): Record<'jwtBearer' | 'clientCredentials', Request> {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  return {
    jwtBearer: {
      headers: form,
      body: new URLSearchParams({
        grant_type: jwtBearer,
        assertion: info.assertion,
        resource: info.url,
      }).toString(),
    },
    clientCredentials: {
      headers: {
        ...form,
        authorization: `Basic ${Buffer.from(`${info.clientId}:${info.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        resource: info.url,
      }).toString(),
    },
  };
}

/** The server's CPU time so far (µs), asked over IPC. */
function serverCpu(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (usage) => {
      const { user, system } = usage as NodeJS.CpuUsage;
      resolve(user + system);
    });
    child.send('cpu');
  });
}

/** Runs `CONCURRENCY` loops of token requests for `ms`; returns successes per second. */
async function load(url: string, request: Request, ms: number) {
  const end = performance.now() + ms;
  let ok = 0;
  let errors = 0;
  const worker = async () => {
    while (performance.now() < end) {
      const response = await fetch(`${url}/oauth2/token`, { method: 'POST', ...request });
      const body = (await response.json()) as { access_token?: string };
      if (response.status === 200 && body.access_token) ok += 1;
      else errors += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { perSecond: (ok / (performance.now() - started)) * 1000, ok, errors };
}

/** One timed round, with the server CPU it cost per issued token. */
async function round(child: ChildProcess, url: string, request: Request) {
  const cpuBefore = await serverCpu(child);
  const result = await load(url, request, ROUND_MS);
  const cpu = (await serverCpu(child)) - cpuBefore;
  return { ...result, cpuPerToken: result.ok ? cpu / result.ok : Number.POSITIVE_INFINITY };
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function figures(rounds: { perSecond: number; cpuPerToken: number; errors: number }[]): Figures {
  const rates = rounds.map((r) => r.perSecond);
  return {
    rounds: rates.map((r) => Math.round(r)),
    medianPerSecond: Math.round(median(rates)),
    minPerSecond: Math.round(Math.min(...rates)),
    maxPerSecond: Math.round(Math.max(...rates)),
    cpuMicrosPerToken: Math.round(median(rounds.map((r) => r.cpuPerToken))),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
  };
}

const round2 = (value: number) => Math.round(value * 100) / 100;

async function measureOn(database: string, databaseUrl: string | undefined) {
  const { child, info } = await startServer(databaseUrl);
  try {
    const kinds = requests(info);
    // Sanity: both grants answer with tokens before anything is timed.
    for (const request of Object.values(kinds)) {
      const response = await fetch(`${info.url}/oauth2/token`, { method: 'POST', ...request });
      if (response.status !== 200)
        throw new Error(`bench request failed: ${await response.text()}`);
    }
    await load(info.url, kinds.clientCredentials, WARMUP_MS);
    await load(info.url, kinds.jwtBearer, WARMUP_MS);
    const jwt: Awaited<ReturnType<typeof round>>[] = [];
    const cc: Awaited<ReturnType<typeof round>>[] = [];
    for (let pair = 0; pair < PAIRS; pair += 1) {
      // Alternate which goes first, so neither always meets the fuller table.
      if (pair % 2 === 0) {
        cc.push(await round(child, info.url, kinds.clientCredentials));
        jwt.push(await round(child, info.url, kinds.jwtBearer));
      } else {
        jwt.push(await round(child, info.url, kinds.jwtBearer));
        cc.push(await round(child, info.url, kinds.clientCredentials));
      }
    }
    const jwtFigures = figures(jwt);
    const ccFigures = figures(cc);
    const ratio = round2(median(jwt.map((r, i) => r.perSecond / cc[i]!.perSecond)));
    const cpuRatio = round2(ccFigures.cpuMicrosPerToken / jwtFigures.cpuMicrosPerToken);
    return {
      database,
      jwtBearer: jwtFigures,
      clientCredentials: ccFigures,
      ratio,
      cpuRatio,
      meetsAim: ratio >= AIM,
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

export async function run(): Promise<object> {
  const results = [await measureOn('embedded PGlite (in memory)', undefined)];
  const postgres = await freshPostgres();
  if (postgres) {
    try {
      results.push(await measureOn('PostgreSQL', postgres.url));
    } finally {
      await postgres.drop();
    }
  }
  const result = {
    suite: 'auth',
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    method: `server in a child process; ${CONCURRENCY} concurrent keep-alive clients; warm-up ${WARMUP_MS} ms per grant, then ${PAIRS} pairs of alternating ${ROUND_MS} ms rounds; ratio = median of per-pair throughput ratios`,
    aim: AIM,
    results,
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/auth.json', `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync('bench/results/auth.md', markdown(result));
  return result;
}

function markdown(r: {
  date: string;
  node: string;
  cpu: string;
  cores: number;
  method: string;
  results: Awaited<ReturnType<typeof measureOn>>[];
}) {
  const row = (database: string, name: string, f: Figures) =>
    `| ${database} | ${name} | ${f.medianPerSecond.toLocaleString('en-US')} | ${f.minPerSecond.toLocaleString('en-US')}–${f.maxPerSecond.toLocaleString('en-US')} | ${f.cpuMicrosPerToken} | ${f.errors} |`;
  return [
    '# Benchmark: auth (jwt-bearer exchange vs. oidc-provider client_credentials)',
    '',
    `${r.date} · Node ${r.node} · ${r.cpu} · ${r.cores} cores`,
    '',
    `Method: ${r.method}. Both grants go through the same Fastify host, oidc-provider token endpoint, hashing adapter and database; jwt-bearer additionally verifies the signed assertion (RS256) and stores its token only while the registration is claimed. Server CPU is the bench server process (on the embedded database it includes PGlite; with PostgreSQL the database server is not counted).`,
    '',
    '| database | grant | median tokens/s | range tokens/s | server CPU µs/token | errors |',
    '|---|---|---:|---:|---:|---:|',
    ...r.results.flatMap((x) => [
      row(x.database, 'jwt-bearer (identity assertion)', x.jwtBearer),
      row(x.database, 'client_credentials (built-in)', x.clientCredentials),
    ]),
    '',
    ...r.results.map(
      (x) =>
        `${x.database}: jwt-bearer runs at **${x.ratio}×** the built-in grant's throughput (median of ${PAIRS} paired rounds; aim ≥ ${AIM}: ${x.meetsAim ? 'met' : 'NOT met'}); by server CPU per token it is ${x.cpuRatio}×.`,
    ),
    '',
  ].join('\n');
}

if (process.argv[2] === '--serve') {
  await serve(process.argv[3] === 'embedded' ? undefined : process.argv[3]);
} else if (import.meta.main) {
  const result = (await run()) as { results: { database: string; ratio: number }[] };
  process.stdout.write(
    `auth: ${result.results.map((r) => `${r.database} ratio ${r.ratio}`).join('; ')}; see bench/results/auth.md\n`,
  );
}
