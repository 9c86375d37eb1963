/**
 * The faces bench's server: accounts and API keys created first (in this process), then the
 * service as a child process (`node src/main.ts`) on the embedded database or on PostgreSQL.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { EntityManager } from '@mikro-orm/postgresql';
import { scopes } from '../../../src/auth/principal.ts';
import { openDatabase } from '../../../src/db/orm.ts';
import { createApiKey } from '../../../src/domain/agents/api-keys.ts';
import { Account } from '../../../src/entities/account.ts';
import { ACCOUNTS, freePort, KEYS_PER_ACCOUNT, sleep } from './settings.ts';

// ---------------------------------------------------------------------------------------------
// The server: credentials first (in this process), then the service as a child process.

export interface Server {
  child: ChildProcess;
  baseUrl: string;
  wsUrl: string;
  /** keys[account][k] */
  keys: string[][];
  database: string;
  stderr: () => string;
}

export async function createCredentials(databaseUrl: string | undefined, dataDir: string) {
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

export async function startServer(
  dataDir: string,
  databaseUrl: string | undefined,
): Promise<Server> {
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

export async function stopServer(server: Server) {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
