/**
 * The service as a child process for a bench (`node src/main.ts`, as in production), reached over
 * loopback, with accounts and API keys created beforehand in the same database (raw SQL, as the
 * migrations define the table: the bench does not depend on how the app mints keys).
 *
 * `root` is the source tree the child runs from: this checkout, or a baseline tree exported by
 * `baselineTree(ref)` so a suite can measure the old code and the new in the same run, on the same
 * machine load, and report ratios.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { scopes } from '../../src/auth/principal.ts';
import { openDatabase } from '../../src/db/orm.ts';
import { newId } from '../../src/entities/base.ts';

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * The source tree of git `ref`, exported to a temporary directory (with this checkout's
 * node_modules linked in), so a suite can start the baseline's server beside the current one.
 */
export function baselineTree(ref: string): { root: string; commit: string; remove(): void } {
  const commit = execFileSync('git', ['rev-parse', '--short', ref], { encoding: 'utf8' }).trim();
  const root = mkdtempSync(path.join(tmpdir(), 'latchkey-baseline-'));
  execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C "${root}"`]);
  // The baseline runs on this checkout's packages when its lockfile is the same; when the
  // dependencies changed in between (a package swapped, say), it gets its own `npm ci`.
  const lock = (dir: string) => readFileSync(path.join(dir, 'package-lock.json'), 'utf8');
  if (lock(root) === lock('.')) {
    symlinkSync(path.resolve('node_modules'), path.join(root, 'node_modules'));
  } else {
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: root,
      stdio: 'inherit',
    });
  }
  return { root, commit, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export interface Account {
  id: string;
  /** API key secrets (`x-api-key`), each a credential of its own. */
  keys: string[];
}

/** Creates accounts with `keysPerAccount` keys each (all scopes), migrating the database first. */
export async function createAccounts(
  target: { databaseUrl: string | undefined; dataDir: string },
  accounts: number,
  keysPerAccount: number,
  tier: 'per_session' | 'free' = 'per_session',
): Promise<Account[]> {
  const db = await openDatabase({ ...target, log: () => {} });
  try {
    const em = db.orm.em.fork();
    const made: Account[] = [];
    for (let a = 0; a < accounts; a++) {
      const id = newId('acc');
      await em.execute(
        'insert into account (id, created_at, updated_at, name, tier) values (?, now(), now(), ?, ?)',
        [id, `bench ${a}`, tier],
      );
      const keys: string[] = [];
      const rows: unknown[][] = [];
      for (let k = 0; k < keysPerAccount; k++) {
        const secret = `lk_live_${randomBytes(32).toString('base64url').slice(0, 43)}`;
        keys.push(secret);
        rows.push([
          newId('key'),
          id,
          `bench key ${k}`,
          createHash('sha256').update(secret).digest('hex'),
          `${secret.slice(0, 12)}…`,
          scopes.join(' '),
        ]);
      }
      for (const row of rows) {
        await em.execute(
          `insert into api_key (id, created_at, updated_at, account_id, name, secret_hash, hint,
             scope, created_by) values (?, now(), now(), ?, ?, ?, ?, ?, 'bench')`,
          row,
        );
      }
      made.push({ id, keys });
    }
    return made;
  } finally {
    await db.close();
  }
}

export interface Service {
  child: ChildProcess;
  baseUrl: string;
  wsUrl: string;
  stderr(): string;
  stop(): Promise<void>;
}

/** Starts `node src/main.ts` from `root` with `env` on top of the bench defaults; waits for /healthz. */
export async function startService(options: {
  root: string;
  dataDir: string;
  databaseUrl: string | undefined;
  env?: Record<string, string>;
  nodeArgs?: string[];
}): Promise<Service> {
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
    DATA_DIR: options.dataDir,
    FREE_TIER_MONTHLY_SESSIONS: '1000000',
    ...options.env,
  };
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), 'src/main.ts'], {
    cwd: options.root,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = performance.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${stderr}`);
    try {
      const response = await fetch(`${baseUrl}/healthz`);
      await response.text();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      await stop();
      throw new Error(`server did not start: ${stderr}`);
    }
    await sleep(100);
  }
  return {
    child,
    baseUrl,
    wsUrl: `${baseUrl.replace('http', 'ws')}/graphql`,
    stderr: () => stderr,
    stop,
  };
}

/** A fresh temporary DATA_DIR (embedded database, key file). */
export function tempDataDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'latchkey-bench-'));
  return { dir, remove: () => existsSync(dir) && rmSync(dir, { recursive: true, force: true }) };
}
