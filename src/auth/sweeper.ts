/**
 * Removes what has expired: provider rows (access tokens, …), unclaimed registrations a day after
 * their claim token lapsed, security-event receipts past their replay window, retired signing
 * keys. Every statement is a plain DELETE … WHERE <expired>, idempotent, so any number of
 * instances may sweep at once without coordination.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { sweepRegistrations } from '../domain/agents/registrations.ts';
import { sweepExpiredPayloads } from './adapter.ts';

export async function sweepOnce(orm: MikroORM, now = new Date()) {
  await sweepExpiredPayloads(orm, now);
  const em = orm.em.fork();
  await sweepRegistrations({ em, clock: () => now });
  await em.execute('delete from security_event_receipt where expires_at <= ?', [now]);
  await em.execute('delete from signing_key where retires_at <= ?', [now]);
}

export function startSweeper(orm: MikroORM, everySeconds: number, logger: Logger) {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = sweepOnce(orm)
      .catch((error) => logger.warn({ err: error, component: 'auth-sweeper' }, 'sweep failed'))
      .finally(() => {
        running = undefined;
      });
  }, everySeconds * 1000);
  timer.unref();
  return async function stop() {
    clearInterval(timer);
    await running;
  };
}
