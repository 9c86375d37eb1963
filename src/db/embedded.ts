/**
 * The embedded default database: PGlite (PostgreSQL compiled to WASM) kept in `DATA_DIR`, served
 * on a loopback socket so the application reaches it through the same `@mikro-orm/postgresql`
 * driver, SQL and migrations as a real PostgreSQL.
 *
 * Invariants (shared/notes/stack-findings.md §2): one PGlite session sits behind the socket, so
 * every transaction is serialized and a query on a second connection inside a transaction would
 * deadlock; the pool is therefore kept at one connection. One process owns a data directory.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface EmbeddedDatabase {
  url: string;
  close(): Promise<void>;
}

/** Starts PGlite on `dataDir` (or in memory for `memory://`) and a loopback socket in front of it. */
export async function startEmbeddedDatabase(
  dataDir: string | 'memory://',
): Promise<EmbeddedDatabase> {
  let db: PGlite;
  if (dataDir === 'memory://') {
    db = await PGlite.create();
  } else {
    const dir = path.join(dataDir, 'pgdata');
    await mkdir(dir, { recursive: true });
    db = await PGlite.create(dir);
  }
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 4 });
  await server.start();
  return {
    url: `postgresql://postgres@${server.getServerConn()}/postgres`,
    async close() {
      await server.stop();
      await db.close();
    },
  };
}
