/**
 * The embedded database's own thread: PGlite and the socket server in front of it (embedded.ts).
 *
 * Why a thread: PGlite is PostgreSQL compiled to WASM and runs every statement on the thread that
 * owns it. On the service's event loop it shared one core with HTTP, JSON and extraction, so a
 * burst of webhooks queued twice on one core while the machine's other core idled. Here it has a
 * core of its own, as a PostgreSQL server process would (bench/results/throughput.md, session 7).
 * A thread rather than a child process: it dies with the service, even on SIGKILL, so no orphan
 * can keep writing the data directory that the next start would open.
 *
 * Protocol with the owner (embedded.ts), one message each way at a time:
 * - on start, `{ type: 'ready' }` once the socket listens and is 0600; a failure to start is thrown,
 *   which ends the thread and reaches the owner as the Worker's `error` event;
 * - on `{ type: 'close' }`, the server stops (its connections end), PGlite closes (the data
 *   directory is consistent) and `{ type: 'closed' }` answers; the owner then ends the thread.
 */
import { chmod } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { coalesceRepliesPerRead } from './pglite-socket-internals.ts';

export interface EmbeddedWorkerData {
  /** The data directory for PGlite's files; undefined keeps the database in memory. */
  pgdata: string | undefined;
  /** PGlite's two WASM modules, compiled once per process by the owner (embedded.ts). */
  modules: { pglite: WebAssembly.Module; initdb: WebAssembly.Module };
  socketPath: string;
  idleTimeoutMs: number;
  maxConnections: number;
}

export type EmbeddedWorkerMessage = { type: 'ready' } | { type: 'closed' };

const port = parentPort;
if (!port) throw new Error('embedded-worker.ts runs only as a worker thread (embedded.ts)');
const options = workerData as EmbeddedWorkerData;

const compiled = {
  pgliteWasmModule: options.modules.pglite,
  initdbWasmModule: options.modules.initdb,
};
const db = options.pgdata
  ? await PGlite.create(options.pgdata, compiled)
  : await PGlite.create(compiled);
// Generic plans for the named statements are set by the pool on each connection (orm.ts), here
// as on PostgreSQL.
coalesceRepliesPerRead();
const server = new PGLiteSocketServer({
  db,
  path: options.socketPath,
  maxConnections: options.maxConnections,
  idleTimeout: options.idleTimeoutMs,
});
try {
  await server.start();
  // The socket is created with the umask's mode; the 0700 directory already keeps others out,
  // and 0600 says so on the file itself.
  await chmod(options.socketPath, 0o600);
} catch (error) {
  await server.stop();
  await db.close();
  throw error;
}

port.on('message', async (message: { type: 'close' }) => {
  if (message.type !== 'close') return;
  await server.stop();
  await db.close();
  port.postMessage({ type: 'closed' } satisfies EmbeddedWorkerMessage);
});
port.postMessage({ type: 'ready' } satisfies EmbeddedWorkerMessage);
