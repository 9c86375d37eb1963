/**
 * Liveness and readiness.
 *
 * `/healthz` is liveness: it answers while the process runs and touches no dependency, so an
 * orchestrator never restarts an instance only because the database is down (a restart would not
 * bring it back, and would drop every open subscription).
 *
 * `/readyz` is readiness: 200 only when the database answers and, when REDIS_URL is set, Redis
 * answers too; otherwise 503 with a JSON body naming which dependency is unreachable, so a load
 * balancer sends traffic elsewhere until it recovers. Each check is bounded by READY_TIMEOUT_MS,
 * so a dependency that stops answering (rather than refusing) cannot make the probe hang.
 * Redis is probed on a connection of its own, opened on the first probe and reconnecting by
 * itself, so the probe never disturbs the event links (one of which is in subscriber mode).
 */

import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { UNAVAILABLE_RETRY_AFTER } from '../errors/index.ts';

/** Longest a readiness check waits for a dependency's answer. */
export const READY_TIMEOUT_MS = 2000;

type CheckResult = 'ok' | 'unreachable';

async function bounded(check: () => Promise<unknown>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('readiness check timed out')), READY_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch {
    return 'unreachable';
  } finally {
    clearTimeout(timer);
  }
}

export interface HealthOptions {
  /** REDIS_URL: when set, readiness also requires Redis. */
  redisUrl?: string | undefined;
}

export function registerHealth(app: FastifyInstance, orm: MikroORM, options: HealthOptions = {}) {
  const redis = options.redisUrl
    ? new Redis(options.redisUrl, {
        lazyConnect: true,
        connectTimeout: READY_TIMEOUT_MS,
        commandTimeout: READY_TIMEOUT_MS,
        maxRetriesPerRequest: 1,
      })
    : undefined;
  // Connection errors are what the probe reports; they must not become unhandled 'error' events.
  redis?.on('error', () => {});
  if (redis) app.addHook('onClose', async () => redis.disconnect());

  const checkRedis = async (): Promise<CheckResult | 'not_configured'> => {
    if (!redis) return 'not_configured';
    return bounded(() => redis.ping());
  };

  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    const [database, redisState] = await Promise.all([
      bounded(() => orm.em.fork().getConnection().execute('select 1')),
      checkRedis(),
    ]);
    const body = { database, redis: redisState };
    if (database === 'ok' && redisState !== 'unreachable') return { status: 'ok', ...body };
    return reply
      .status(503)
      .header('retry-after', String(UNAVAILABLE_RETRY_AFTER))
      .send({ status: 'unavailable', ...body });
  });
}
