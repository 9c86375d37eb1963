/**
 * The embedded default database: PGlite (PostgreSQL compiled to WASM) kept in `DATA_DIR`, served
 * to this process on a unix socket, so the application reaches it through the same
 * `@mikro-orm/postgresql` driver, SQL and migrations as a real PostgreSQL. PGlite and its socket
 * server run on a worker thread of their own (embedded-worker.ts), so the database's work takes a
 * core of its own instead of the event loop's, as a PostgreSQL server's would.
 *
 * No TCP listener: PGlite accepts any password, so a loopback port would let every local user and
 * every SSRF-able process read the database. The socket lives in a 0700 directory
 * (`DATA_DIR/run`) and is itself 0600; where DATA_DIR's path is too long for a socket address
 * (108 bytes on Linux) or the database is in memory, a private 0700 directory from mkdtemp under
 * the system temporary directory is used instead and removed on close.
 *
 * Invariants (docs/notes/stack-findings.md §2): one PGlite session sits behind the socket, so
 * every transaction is serialized and a query on a second connection inside a transaction would
 * deadlock; the pool is therefore kept at one connection. A connection that stays silent for
 * `idleTimeoutMs` is cut and its open transaction rolled back (pglite-socket's idle timeout), so a
 * transaction left open can stall the service for at most that long. PostgreSQL's own
 * `idle_in_transaction_session_timeout` is no use here: PGlite has no timer signals, and setting it
 * made the WASM session spin at full CPU in our probe (docs/security/secrets.md).
 *
 * One process owns a data directory: a start that finds the socket answering refuses, since two
 * PGlite instances writing the same files would corrupt them.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, unlink } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ConfigError } from '../config.ts';
import type { EmbeddedWorkerData, EmbeddedWorkerMessage } from './embedded-worker.ts';

/** How the driver reaches the embedded database: `pg` takes a directory as host for unix sockets. */
export interface EmbeddedConnection {
  host: string;
  port: number;
  user: string;
  dbName: string;
}

export interface EmbeddedDatabase {
  connection: EmbeddedConnection;
  /** The socket file (mode 0600). */
  socketPath: string;
  close(): Promise<void>;
}

export interface EmbeddedOptions {
  /** DATA_DIR; the database files go to `DATA_DIR/pgdata`. */
  dataDir: string;
  /** For tests: keep the database in memory (the socket still goes to a private directory). */
  inMemory?: boolean;
  /** Milliseconds a connection may stay silent (e.g. idle inside a transaction) before it is cut. */
  idleTimeoutMs?: number;
}

/** Cuts a connection silent this long; the pool retires idle connections well before (orm.ts). */
export const EMBEDDED_IDLE_TIMEOUT_MS = 30_000;
const PORT = 5432;
const SOCKET_NAME = `.s.PGSQL.${PORT}`;
/** sun_path is 108 bytes on Linux (104 on macOS) including the terminating NUL. */
const MAX_SOCKET_PATH = 103;

/** Whether a process answers on the socket (a live owner) rather than a stale file from a crash. */
function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** A 0700 directory for the socket: DATA_DIR/run when its path fits, else a private temporary one. */
async function socketDirectory(
  dataDir: string,
  inMemory: boolean,
): Promise<{ dir: string; temporary: boolean }> {
  const preferred = path.join(dataDir, 'run');
  if (!inMemory && path.join(preferred, SOCKET_NAME).length <= MAX_SOCKET_PATH) {
    await mkdir(preferred, { recursive: true, mode: 0o700 });
    await chmod(preferred, 0o700);
    return { dir: preferred, temporary: false };
  }
  return { dir: await mkdtemp(path.join(tmpdir(), 'latchkey-db-')), temporary: true };
}

/** Starts PGlite on `DATA_DIR/pgdata` (or in memory) behind a 0600 unix socket. */
export async function startEmbeddedDatabase(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
  const inMemory = options.inMemory ?? false;
  const { dir, temporary } = await socketDirectory(options.dataDir, inMemory);
  const socketPath = path.join(dir, SOCKET_NAME);
  if (!temporary) {
    if (await answers(socketPath)) {
      throw new ConfigError(
        `${options.dataDir} is in use by another running Latchkey (its database answers on ` +
          `${socketPath}); stop it first`,
      );
    }
    await unlink(socketPath).catch(() => {});
  }
  let worker: Worker;
  try {
    worker = await startWorker({
      pgdata: inMemory ? undefined : await pgdataDirectory(options.dataDir),
      modules: await compiledModules(),
      socketPath,
      idleTimeoutMs: options.idleTimeoutMs ?? EMBEDDED_IDLE_TIMEOUT_MS,
      maxConnections: 4,
    });
  } catch (error) {
    if (temporary) await rm(dir, { recursive: true, force: true });
    throw error;
  }
  let closing: Promise<void> | undefined;
  // Once running, the thread ends only when told to; if PGlite fails in it, the database is gone
  // and so is every query, so the service fails as loudly as it did when PGlite ran on the event
  // loop: an uncaught error, which exits a process started by main.ts.
  worker.on('error', (error) => {
    if (closing) return;
    throw new Error(`the embedded database stopped: ${error.message}`, { cause: error });
  });
  return {
    connection: { host: dir, port: PORT, user: 'postgres', dbName: 'postgres' },
    socketPath,
    close() {
      closing ??= (async () => {
        await stopWorker(worker);
        if (temporary) await rm(dir, { recursive: true, force: true });
        else await unlink(socketPath).catch(() => {});
      })();
      return closing;
    },
  };
}

async function pgdataDirectory(dataDir: string): Promise<string> {
  const pgdata = path.join(dataDir, 'pgdata');
  await mkdir(pgdata, { recursive: true, mode: 0o700 });
  return pgdata;
}

/**
 * PGlite's WASM modules, compiled once per process and kept for its lifetime. Every thread
 * instantiates these instead of compiling its own: an open costs no compilation after the first,
 * and the machine code outlives every thread. (Each thread compiling its own, a test process that
 * opened and closed embedded databases in turn once died in V8 itself, `Check failed:
 * jit_page.has_value()`, as a thread ended; with the code owned here, ending a thread frees none.)
 */
let modules: Promise<EmbeddedWorkerData['modules']> | undefined;
function compiledModules(): Promise<EmbeddedWorkerData['modules']> {
  modules ??= (async () => {
    const dist = path.dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite')));
    const [pglite, initdb] = await Promise.all([
      readFile(path.join(dist, 'pglite.wasm')).then((bytes) => WebAssembly.compile(bytes)),
      readFile(path.join(dist, 'initdb.wasm')).then((bytes) => WebAssembly.compile(bytes)),
    ]);
    return { pglite, initdb };
  })();
  return modules;
}

/** Starts PGlite's thread and resolves once its socket listens; rejects with its failure. */
function startWorker(data: EmbeddedWorkerData): Promise<Worker> {
  const worker = new Worker(new URL('./embedded-worker.ts', import.meta.url), {
    workerData: data,
    name: 'latchkey-embedded-db',
  });
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => {
      worker.off('message', ready);
      worker.off('exit', exited);
      reject(error);
    };
    const exited = (code: number) =>
      fail(new Error(`the embedded database's thread exited with code ${code} before it started`));
    const ready = (message: EmbeddedWorkerMessage) => {
      if (message.type !== 'ready') return;
      worker.off('error', fail);
      worker.off('exit', exited);
      resolve(worker);
    };
    worker.on('message', ready);
    worker.once('error', fail);
    worker.once('exit', exited);
  });
}

/** Asks the thread to stop its server and close PGlite, then ends the thread. */
async function stopWorker(worker: Worker): Promise<void> {
  await new Promise<void>((resolve) => {
    const done = () => {
      worker.off('message', closed);
      worker.off('exit', done);
      resolve();
    };
    const closed = (message: EmbeddedWorkerMessage) => {
      if (message.type === 'closed') done();
    };
    worker.on('message', closed);
    worker.once('exit', done);
    worker.postMessage({ type: 'close' });
  });
  // PGlite has closed its files; whatever the thread still holds (a timer, a stray handle) goes.
  await worker.terminate();
}
