/**
 * Liveness and readiness. `/healthz` answers while the process runs; `/readyz` answers 200 only
 * when the database answers, so a load balancer stops sending traffic to an instance that lost it.
 */

import type { MikroORM } from '@mikro-orm/postgresql';
import type { FastifyInstance } from 'fastify';

export function registerHealth(app: FastifyInstance, orm: MikroORM) {
  app.get('/healthz', { logLevel: 'warn' }, async () => ({ status: 'ok' }));
  app.get('/readyz', { logLevel: 'warn' }, async (_request, reply) => {
    try {
      await orm.em.getConnection().execute('select 1');
      return { status: 'ok', database: 'ok' };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: 'unreachable' });
    }
  });
}
