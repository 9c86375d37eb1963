/**
 * The challenge sweeper: every CHALLENGE_SWEEP_INTERVAL seconds (with jitter, so instances drift
 * apart), expire due sessions, relay unannounced verdicts, erase bodies past retention, drop ended
 * throttle windows and expired mailed links, apply plan changes due (a downgrade at the month's start). Each job
 * is safe with any number of instances sweeping at once (SKIP LOCKED claims, conditional updates).
 * Ticks never overlap; `stop()` waits for a running tick.
 */
import { sweepAccounts } from './accounts/sweep.ts';
import { type ChallengeDeps, forked } from './context.ts';
import { purgeExpiredBodies } from './messages/retention.ts';
import { expireDueSessions } from './sessions/expire.ts';
import { applyScheduledPlans } from './usage/plan.ts';
import { relayUnpublished } from './verdicts/outbox.ts';

/** One pass of every job; exported for tests and for operators' one-off runs. */
export async function sweepOnce(deps: ChallengeDeps) {
  const ctx = forked(deps);
  return {
    expired: await expireDueSessions(ctx),
    relayed: await relayUnpublished(ctx),
    purged: await purgeExpiredBodies(ctx),
    accounts: await sweepAccounts(ctx.em, ctx.clock()),
    plans: await applyScheduledPlans(ctx.em, ctx.clock()),
  };
}

export function startSweeper(deps: ChallengeDeps, intervalSeconds: number) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  const schedule = () => {
    const delay = intervalSeconds * 1000 * (0.8 + Math.random() * 0.4);
    timer = setTimeout(tick, delay);
    timer.unref();
  };
  const tick = () => {
    running = sweepOnce(deps)
      .catch((error) => deps.log.error({ err: error }, 'challenge sweep failed'))
      .finally(() => {
        running = undefined;
        if (!stopped) schedule();
      });
  };
  schedule();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await running;
  };
}
