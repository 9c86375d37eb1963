/**
 * The ORM: MikroORM on PostgreSQL, reached at `DATABASE_URL` or, when that is unset, at the
 * embedded PGlite database. Committed migrations are applied at start, so a fresh clone reaches a
 * working schema with no other step.
 *
 * Invariant: application code never uses the global EntityManager; every request, operation and
 * job works on its own `orm.em.fork()` (allowGlobalContext stays false to enforce it).
 */

import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { entities } from '../entities/index.ts';
import { type EmbeddedDatabase, startEmbeddedDatabase } from './embedded.ts';
import { migrationsList } from './migrations/index.ts';

export interface Database {
  orm: MikroORM;
  /** True when running on the embedded PGlite database (one connection, serialized transactions). */
  embedded: boolean;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl: string | undefined;
  dataDir: string;
  /** For tests: keep the embedded database in memory rather than in `dataDir`. */
  embeddedInMemory?: boolean;
  /** Where the ORM's own messages (migrations applied) go; structured logs in the app. */
  log?: (message: string) => void;
  /** Seconds to wait for a connection (DATABASE_CONNECT_TIMEOUT) before the query fails. */
  connectTimeout?: number;
}

/** DATABASE_CONNECT_TIMEOUT's default, in seconds. */
export const DEFAULT_CONNECT_TIMEOUT = 5;
/**
 * The embedded database's bound on waiting for its single pooled connection. It is in-process
 * and cannot be unreachable, so a wait there is queueing under load, not an outage: bounded
 * (never a hang) but generous, so a burst of requests is served rather than refused.
 */
const EMBEDDED_ACQUIRE_TIMEOUT = 30;

export function ormOptions(
  clientUrl: string,
  embedded: boolean,
  log?: (message: string) => void,
  connectTimeout = DEFAULT_CONNECT_TIMEOUT,
): Options {
  return {
    clientUrl,
    entities,
    extensions: [Migrator],
    migrations: {
      path: 'src/db/migrations',
      migrationsList,
      snapshot: false,
      fileName: (timestamp: string, name?: string) => `${timestamp}-${name ?? 'migration'}`,
      snapshotOnMigrate: false,
      transactional: true,
      allOrNothing: true,
    },
    // PGlite serializes everything behind one session; a larger pool only adds deadlock risk.
    pool: embedded ? { min: 0, max: 1 } : { min: 0, max: 10 },
    driverOptions: {
      // Without a bound, pg waits forever for a connection to an unreachable server (or for a
      // free one in the pool); with it the query fails and the caller gets 503 + Retry-After.
      connectionTimeoutMillis: (embedded ? EMBEDDED_ACQUIRE_TIMEOUT : connectTimeout) * 1000,
      // TCP keepalive notices a server that vanished without closing idle pooled connections.
      keepAlive: true,
    },
    allowGlobalContext: false,
    forceUtcTimezone: true,
    ignoreUndefinedInQuery: true,
    debug: false,
    colors: false,
    ...(log ? { logger: log } : {}),
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  let embeddedDb: EmbeddedDatabase | undefined;
  let url = options.databaseUrl;
  if (!url) {
    embeddedDb = await startEmbeddedDatabase(
      options.embeddedInMemory ? 'memory://' : options.dataDir,
    );
    url = embeddedDb.url;
  }
  const embedded = embeddedDb !== undefined;
  let orm: MikroORM;
  try {
    orm = await MikroORM.init(ormOptions(url, embedded, options.log, options.connectTimeout));
    await orm.migrator.up();
  } catch (error) {
    await embeddedDb?.close();
    throw error;
  }
  return {
    orm,
    embedded,
    async close() {
      await orm.close(true);
      await embeddedDb?.close();
    },
  };
}
