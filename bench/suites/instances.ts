/**
 * Benchmark: does a second instance add throughput (issue 16: two instances on PostgreSQL + Redis
 * ≥ 1.6× one instance on open+close)?
 *
 * On a 2-core machine a second instance gets no cores of its own: the service, PostgreSQL and the
 * client already share both. So each instance is given the same fixed CPU budget — its own Linux
 * cgroup with a CFS quota (INSTANCE_CPU of one core, default 0.35) — the way each would have a
 * machine of its own, while PostgreSQL, Redis and the client run unconfined on what is left. With
 * one instance under its budget the service is the bottleneck; a second instance under the same
 * budget doubles the service's CPU, and the ratio says whether anything shared (a lock, the
 * database, Redis) holds the pair back. The CPU the database and the client spent per pair is
 * reported beside it, to show they had room.
 *
 * Both instances share one fresh database, one Redis and one SECRETS_KEY, as a real deployment;
 * 48 API keys of one account, 32 requests in flight (16 per instance when there are two), each
 * worker opening an email_otp session and closing it, in ROUNDS rounds alternating one/two.
 * Needs root (cgroup v1 cpu controller at /sys/fs/cgroup/cpu, or v2 at /sys/fs/cgroup) and
 * PostgreSQL + Redis (LATCHKEY_TEST_DATABASE_URL, LATCHKEY_TEST_REDIS_URL); otherwise it says
 * why it did not measure.
 * Writes bench/results/instances.json and .md (project root as cwd).
 * Run: `npm run bench -- instances`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { cpuMeter } from '../lib/cpu.ts';
import { sendJson } from '../lib/http.ts';
import { freshPostgres } from '../lib/postgres.ts';
import { createAccounts, type Service, startService, tempDataDir } from '../lib/service.ts';
import { stats } from '../lib/stats.ts';

const IN_FLIGHT = 32;
const KEYS = 48;
const PAIRS_PER_KEY = 40;
const ROUNDS = 3;
const CPU_SHARE = Number(process.env.INSTANCE_CPU ?? 0.35);

/** A CPU budget for a process: a cgroup with a CFS quota of `share` of one core. */
function cpuBudget(name: string, share: number): { add(pid: number): void; remove(): void } | null {
  const period = 100_000;
  const v1 = '/sys/fs/cgroup/cpu';
  const v2 = '/sys/fs/cgroup';
  try {
    if (existsSync(`${v1}/cpu.cfs_quota_us`)) {
      const dir = `${v1}/${name}`;
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${dir}/cpu.cfs_period_us`, String(period));
      writeFileSync(`${dir}/cpu.cfs_quota_us`, String(Math.round(share * period)));
      return {
        add: (pid) => writeFileSync(`${dir}/cgroup.procs`, String(pid)),
        remove: () => rmdirSync(dir),
      };
    }
    if (existsSync(`${v2}/cgroup.controllers`)) {
      const dir = `${v2}/${name}`;
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${dir}/cpu.max`, `${Math.round(share * period)} ${period}`);
      return {
        add: (pid) => writeFileSync(`${dir}/cgroup.procs`, String(pid)),
        remove: () => rmdirSync(dir),
      };
    }
  } catch {
    return null;
  }
  return null;
}

/** Open+close pairs over `keys`, spread over `services` (key i goes to service i % n). */
async function openClose(services: Service[], keys: string[], pairs: number) {
  let next = 0;
  const openMs: number[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < pairs) {
        const i = next++;
        const key = keys[i % keys.length]!;
        const service = services[(i % keys.length) % services.length]!;
        const t = performance.now();
        const opened = await sendJson('POST', `${service.baseUrl}/v1/sessions`, key, {
          channel: 'email_otp',
        });
        if (opened.status !== 201) throw new Error(`open answered ${opened.status}`);
        openMs.push(performance.now() - t);
        const closed = await sendJson(
          'DELETE',
          `${service.baseUrl}/v1/sessions/${opened.body.session_id}`,
          key,
        );
        if (closed.status !== 200) throw new Error(`close answered ${closed.status}`);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { pairsPerSecond: Math.round(pairs / seconds), open: stats(openMs) };
}

export async function run() {
  const redisUrl = process.env.LATCHKEY_TEST_REDIS_URL;
  const pg = await freshPostgres();
  const why = !pg
    ? 'no PostgreSQL (LATCHKEY_TEST_DATABASE_URL)'
    : !redisUrl
      ? 'no Redis (LATCHKEY_TEST_REDIS_URL)'
      : null;
  const budgets = [cpuBudget(`latchkey-bench-a-${process.pid}`, CPU_SHARE)];
  budgets.push(cpuBudget(`latchkey-bench-b-${process.pid}`, CPU_SHARE));
  const refused =
    why ?? (budgets.includes(null) ? 'no writable cgroup cpu controller (root needed)' : null);
  if (refused) {
    for (const b of budgets) b?.remove();
    await pg?.drop();
    console.log(`instances: not measured: ${refused}`);
    return null;
  }
  const secretsKey = `bench:${randomBytes(32).toString('base64url')}`;
  const dirs = [tempDataDir(), tempDataDir()];
  const services: Service[] = [];
  const figures: { instances: number; pairsPerSecond: number; openP99: number; cpu: unknown }[] =
    [];
  try {
    const accounts = await createAccounts(
      { databaseUrl: pg!.url, dataDir: dirs[0]!.dir },
      2 * ROUNDS,
      KEYS,
    );
    for (const [i, dir] of dirs.entries()) {
      const service = await startService({
        root: process.cwd(),
        dataDir: dir.dir,
        databaseUrl: pg!.url,
        env: { REDIS_URL: redisUrl!, SECRETS_KEY: secretsKey },
      });
      budgets[i]!.add(service.child.pid!);
      services.push(service);
    }
    // Warm-up on each instance (JIT, pools); not counted.
    const warm = (await createAccounts({ databaseUrl: pg!.url, dataDir: dirs[0]!.dir }, 1, 4))[0]!;
    await openClose(services, warm.keys, 200);
    for (let r = 0; r < ROUNDS; r++) {
      for (const n of r % 2 ? [2, 1] : [1, 2]) {
        const account = accounts[2 * r + (n - 1)]!;
        const meters = services.slice(0, n).map((s) => cpuMeter(s.child.pid!, pg!.url));
        const done = await Promise.all(meters.map((m) => m()));
        const pairs = KEYS * PAIRS_PER_KEY;
        const result = await openClose(services.slice(0, n), account.keys, pairs);
        const cpu = await Promise.all(done.map((d) => d(pairs)));
        figures.push({
          instances: n,
          pairsPerSecond: result.pairsPerSecond,
          openP99: result.open.p99,
          cpu,
        });
        console.log(`  round ${r + 1}, ${n} instance(s): ${result.pairsPerSecond} pairs/s`);
      }
    }
  } finally {
    for (const s of services) await s.stop();
    for (const b of budgets) b!.remove();
    for (const d of dirs) d.remove();
    await pg!.drop();
  }
  const median = (n: number) => {
    const v = figures
      .filter((f) => f.instances === n)
      .map((f) => f.pairsPerSecond)
      .sort((a, b) => a - b);
    return v[v.length >> 1]!;
  };
  const result = {
    suite: 'instances',
    at: new Date().toISOString(),
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    load: loadavg()[0],
    cpuShare: CPU_SHARE,
    rounds: figures,
    one: median(1),
    two: median(2),
    ratio: Math.round((median(2) / median(1)) * 100) / 100,
  };
  write(result);
  console.log(`instances: one ${result.one} pairs/s, two ${result.two} pairs/s, ${result.ratio}x`);
  return result;
}

function write(result: NonNullable<Awaited<ReturnType<typeof run>>>) {
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/instances.json', `${JSON.stringify(result, null, 2)}\n`);
  const md = `# Benchmark: instances (issue 16)

${result.at} · ${result.cpu} × ${result.cores} cores · 1-minute load ${result.load.toFixed(2)} at the end

Method: the header of \`bench/suites/instances.ts\`. Each instance runs in a cgroup of its own with a CPU quota of ${result.cpuShare} of one core; PostgreSQL, Redis and the client are not confined. Open+close pairs (email_otp), 32 in flight over 48 keys of one account, ${ROUNDS} rounds alternating one instance and two.

**Two instances: ${result.two} pairs/s; one: ${result.one} pairs/s (medians) — ${result.ratio}×.**

| round | instances | pairs/s | open p99 (ms) | CPU per pair: each instance / PostgreSQL / client (ms) |
|---:|---:|---:|---:|---|
${result.rounds.map((f, i) => `| ${(i >> 1) + 1} | ${f.instances} | ${f.pairsPerSecond} | ${f.openP99} | ${(f.cpu as { serverMsPerOp: number; databaseMsPerOp: number | null; clientMsPerOp: number }[]).map((c) => c.serverMsPerOp).join(' + ')} / ${(f.cpu as { databaseMsPerOp: number | null }[])[0]!.databaseMsPerOp} / ${(f.cpu as { clientMsPerOp: number }[])[0]!.clientMsPerOp} |`).join('\n')}
`;
  writeFileSync('bench/results/instances.md', md);
}

if (import.meta.main) await run();
