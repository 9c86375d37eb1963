/**
 * The accounts' share of the challenge sweeper: ended throttle windows (sign-in, sign-up, mail
 * requests: one row per email and address tried, which would otherwise pile up) and mailed links
 * past their expiry. Plain conditional deletes, safe with any number of instances at once.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { sweep as sweepCounters } from '../throttle/counter.ts';

export async function sweepAccounts(em: EntityManager, now: Date) {
  const counters = await sweepCounters(em, now);
  const result = await em.execute('delete from email_token where expires_at <= ?', [now], 'run');
  return { counters, links: (result as { affectedRows?: number }).affectedRows ?? 0 };
}
