/**
 * Fixed-window counters in the database, exact across instances: one atomic upsert per hit, so
 * two instances counting the same key never lose an increment. Count before acting on the
 * outcome: the count an upsert returns is that attempt's own, so parallel attempts cannot all pass
 * a check made before any of them counted. Used for sign-in, sign-up and mail throttling.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RowOf } from '../../entities/row.ts';
import type { ThrottleCounter } from '../../entities/throttle-counter.ts';

export interface CounterState {
  count: number;
  windowEndsAt: Date;
}

/** Adds one to `key` in the window that contains `now`, starting a new window when the last ended. */
export async function hit(
  em: EntityManager,
  key: string,
  windowSeconds: number,
  now = new Date(),
): Promise<CounterState> {
  const windowEnd = new Date(now.getTime() + windowSeconds * 1000);
  const [row] = await em.execute<Pick<RowOf<ThrottleCounter>, 'count' | 'window_ends_at'>[]>(
    `insert into throttle_counter (key, count, window_ends_at) values (?, 1, ?)
     on conflict (key) do update set
       count = case when throttle_counter.window_ends_at <= ? then 1 else throttle_counter.count + 1 end,
       window_ends_at = case when throttle_counter.window_ends_at <= ? then excluded.window_ends_at
                             else throttle_counter.window_ends_at end
     returning count, window_ends_at`,
    [key, windowEnd, now, now],
  );
  return { count: row!.count, windowEndsAt: new Date(row!.window_ends_at) };
}

/** Gives one counted attempt back (a success must not use up an address's allowance). */
export async function reward(em: EntityManager, key: string): Promise<void> {
  await em.execute('update throttle_counter set count = greatest(count - 1, 0) where key = ?', [
    key,
  ]);
}

export async function reset(em: EntityManager, key: string): Promise<void> {
  await em.execute('delete from throttle_counter where key = ?', [key]);
}

/** Removes ended windows; safe to run from any number of instances at once. */
export async function sweep(em: EntityManager, now = new Date()): Promise<number> {
  const result = await em.execute(
    'delete from throttle_counter where window_ends_at <= ?',
    [now],
    'run',
  );
  return (result as { affectedRows?: number }).affectedRows ?? 0;
}
