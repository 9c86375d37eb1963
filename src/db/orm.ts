/**
 * The ORM: MikroORM on PostgreSQL, reached at `DATABASE_URL` or, when that is unset, at the
 * embedded PGlite database. Committed migrations are applied at start, so a fresh clone reaches a
 * working schema with no other step.
 *
 * Invariant: application code never uses the global EntityManager; every request, operation and
 * job works on its own `orm.em.fork()` (allowGlobalContext stays false to enforce it).
 *
 * Opening also loads the sealing keys (kept outside the database: SECRETS_KEY or
 * DATA_DIR/secrets.key) and upgrades values sealed the old way, so every entry point (the service,
 * the operator commands) sees the same sealed columns through `db.sealer`.
 */

import { Migrator } from '@mikro-orm/migrations';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import { defaultPoolMax } from '../config.ts';
import { entities } from '../entities/index.ts';
import { needsOwnAnalyzer, startAnalyzer } from './analyzer.ts';
import {
  EMBEDDED_IDLE_TIMEOUT_MS,
  type EmbeddedConnection,
  type EmbeddedDatabase,
  startEmbeddedDatabase,
} from './embedded.ts';
import { migrationsList } from './migrations/index.ts';
import { upgradeSealedValues } from './sealed-columns.ts';
import { createSealer, type Sealer } from './sealer.ts';
import { loadSealingKeys, type SealingKey } from './sealing-keys.ts';

export interface Database {
  orm: MikroORM;
  /** True when running on the embedded PGlite database (one connection, serialized transactions). */
  embedded: boolean;
  /** Seals and opens secrets at rest with the keys kept outside the database. */
  sealer: Sealer;
  /** The keys behind `sealer` (first seals), for the rotation command. */
  sealingKeys: SealingKey[];
  /** The embedded database's unix socket (mode 0600); undefined on PostgreSQL. */
  embeddedSocketPath: string | undefined;
  /** True when the service analyzes its tables itself (analyzer.ts): no autovacuum does. */
  gathersStatistics: boolean;
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
  /** PostgreSQL only: most pooled connections (DATABASE_POOL_MAX). */
  poolMax?: number;
  /** SECRETS_KEY, parsed; unset means the key file in `dataDir` (created on first start). */
  sealingKeys?: SealingKey[];
  /** Embedded only: ms a connection may sit silent (idle in a transaction) before it is cut. */
  embeddedIdleTimeoutMs?: number;
  /**
   * ms between checks for tables due for ANALYZE, where the service gathers statistics itself
   * (the embedded database; PostgreSQL without autovacuum: analyzer.ts).
   */
  analyzeIntervalMs?: number;
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
  target: string | EmbeddedConnection,
  embedded: boolean,
  log?: (message: string) => void,
  connectTimeout = DEFAULT_CONNECT_TIMEOUT,
  embeddedIdleTimeoutMs = EMBEDDED_IDLE_TIMEOUT_MS,
  poolMax = defaultPoolMax(),
): Options {
  return {
    ...(typeof target === 'string' ? { clientUrl: target } : target),
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
    // Tables are described once, by the entities; the few SQL functions (the provision-limits
    // check an open runs in one statement) are written once, in the migration that creates them.
    // The schema diff therefore leaves routines alone instead of proposing to drop them.
    schemaGenerator: { ignoreRoutines: true },
    // PGlite serializes everything behind one session; a larger pool only adds deadlock risk.
    // Idle connections are retired by the pool well before the embedded server's idle timeout
    // cuts them, so only a connection held silent (in a transaction) ever meets that timeout.
    pool: embedded
      ? { min: 0, max: 1, idleTimeoutMillis: Math.min(10_000, embeddedIdleTimeoutMs / 3) }
      : { min: 0, max: poolMax },
    driverOptions: {
      // Without a bound, pg waits forever for a connection to an unreachable server (or for a
      // free one in the pool); with it the query fails and the caller gets 503 + Retry-After.
      connectionTimeoutMillis: (embedded ? EMBEDDED_ACQUIRE_TIMEOUT : connectTimeout) * 1000,
      // TCP keepalive notices a server that vanished without closing idle pooled connections.
      keepAlive: true,
      // A server may keep one session behind every connection (PGlite behind its socket, embedded
      // or reached by DATABASE_URL; a session-mode pooler), so statements a retired connection
      // prepared may still be there: each new connection starts clean (db/prepared.ts), with
      // generic plans for them (below).
      onPoolCreated: prepareEachConnection,
    },
    allowGlobalContext: false,
    forceUtcTimezone: true,
    ignoreUndefinedInQuery: true,
    debug: false,
    colors: false,
    ...(log ? { logger: log } : {}),
  };
}

/**
 * Each new connection, in one round trip queued ahead of its first query (a failure surfaces on
 * that query's connection):
 * - drops the named statements earlier connections left in the same server session;
 * - plans the named statements once (`plan_cache_mode = force_generic_plan`). The hot paths are
 *   named prepared statements so that each is planned once per connection (db/prepared.ts), but
 *   once autovacuum has analyzed the tables, PostgreSQL's default `auto` mode judged the open
 *   statement's custom plans cheaper and planned it anew on every execution: after one ANALYZE in
 *   the throughput bench, 1,319 custom plans to 508 generic ones on one connection, where every
 *   other statement kept its generic plan (bench/results/throughput.md, session 8). PGlite did the
 *   same (0.39 ms of planning per open, session 7); its one session behind every connection gets
 *   the setting from the first connection. Only statements with parameters are affected, and the
 *   service's only ones are the named statements: MikroORM inlines values into the text of
 *   everything else.
 */
function prepareEachConnection(pool: Pool) {
  pool.on('connect', (client) => {
    client.query('deallocate all; set plan_cache_mode = force_generic_plan').catch(() => {});
  });
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const sealingKeys = await loadSealingKeys({
    secretsKey: options.sealingKeys,
    dataDir: options.dataDir,
  });
  let embeddedDb: EmbeddedDatabase | undefined;
  if (!options.databaseUrl) {
    embeddedDb = await startEmbeddedDatabase({
      dataDir: options.dataDir,
      inMemory: options.embeddedInMemory,
      idleTimeoutMs: options.embeddedIdleTimeoutMs,
    });
  }
  const embedded = embeddedDb !== undefined;
  let orm: MikroORM | undefined;
  let analyzes = false;
  try {
    orm = await MikroORM.init(
      ormOptions(
        embeddedDb?.connection ?? options.databaseUrl!,
        embedded,
        options.log,
        options.connectTimeout,
        options.embeddedIdleTimeoutMs,
        options.poolMax,
      ),
    );
    await orm.migrator.up();
    await upgradeSealedValues(orm.em.fork(), sealingKeys);
    analyzes = await needsOwnAnalyzer(orm, embedded);
  } catch (error) {
    await orm?.close(true);
    await embeddedDb?.close();
    throw error;
  }
  const opened = orm;
  if (analyzes && !embedded) {
    options.log?.(
      'PostgreSQL runs without autovacuum: the service analyzes its tables by autovacuum’s rule',
    );
  }
  const analyzer = analyzes
    ? startAnalyzer(opened, options.analyzeIntervalMs, options.log)
    : undefined;
  return {
    orm: opened,
    embedded,
    gathersStatistics: analyzes,
    sealer: createSealer(sealingKeys),
    sealingKeys,
    embeddedSocketPath: embeddedDb?.socketPath,
    async close() {
      await analyzer?.stop();
      await opened.close(true);
      await embeddedDb?.close();
    },
  };
}
