/**
 * The challenge-session runtime of one instance: the event bus (Redis when REDIS_URL is set), the
 * sealer, the number pool synced from configuration, the waiter registry and the sweeper.
 * `buildApp` starts it with the database and stops it before the database closes.
 *
 * Shutdown order (app.ts): `waiters.close()` first, so open waits answer and the HTTP server can
 * drain; then, after the server and SMTP listener closed, `stop()`: the sweeper, background work
 * and the outbox marks, and the bus last.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config.ts';
import { createEventBus } from '../events/bus.ts';
import { Background, type ChallengeDeps, type DomainLog } from './context.ts';
import type { Sealer } from './messages/sealer.ts';
import { syncNumberPool } from './numbers/pool.ts';
import { SessionMetrics } from './session-metrics.ts';
import { createTargetPolicy } from './sessions/target-policy.ts';
import { startSweeper } from './sweeper.ts';
import { PublishedMarks } from './verdicts/published-marks.ts';
import { WaiterRegistry } from './verdicts/waiters.ts';
import { WebhookService } from './webhooks/worker.ts';

export interface ChallengeRuntime {
  deps: ChallengeDeps;
  stop(): Promise<void>;
}

export async function startChallengeRuntime(
  config: Config,
  orm: MikroORM,
  log: DomainLog,
  /** The service-wide sealer (keys kept outside the database). */
  sealer: Sealer,
  /** What every operation reads the time from (tests move it; the wall clock otherwise). */
  clock: () => Date = () => new Date(),
): Promise<ChallengeRuntime> {
  const em = orm.em.fork();
  await syncNumberPool(
    em,
    { synthetic: config.syntheticNumbers, programmable: config.twilioNumbers },
    clock(),
  );
  const events = await createEventBus({
    redisUrl: config.redisUrl,
    onError: (error) => log.warn({ err: error }, 'event bus error'),
  });
  const deps: ChallengeDeps = {
    orm,
    events,
    sealer,
    clock,
    after: (ms, callback) => {
      const timer = setTimeout(callback, ms);
      return () => clearTimeout(timer);
    },
    log,
    waiters: new WaiterRegistry(),
    background: new Background(),
    marks: new PublishedMarks(orm, clock, (error) =>
      log.warn({ err: error }, 'verdict outbox marks not written'),
    ),
    webhooks: new WebhookService({
      allowPrivate: config.webhookAllowPrivate,
      attemptTimeoutMs: config.webhookAttemptTimeout * 1000,
    }),
    metrics: new SessionMetrics(),
    settings: {
      sessionTtl: config.sessionTtl,
      quarantine: config.numberQuarantine,
      retention: config.messageRetention,
      inboxDomain: config.inboundEmailDomain,
      freeTierMonthlySessions: config.freeTierMonthlySessions,
      defaultNumberType: config.twilioNumbers.length ? 'programmable' : 'synthetic',
      targetPolicy: createTargetPolicy({
        extra: config.targetPolicyExtra,
        allow: config.targetPolicyAllow,
      }),
    },
  };
  const stopSweeper = startSweeper(deps, config.challengeSweepInterval);
  deps.webhooks.start(deps);
  return {
    deps,
    async stop() {
      deps.waiters.close();
      await stopSweeper();
      await deps.webhooks.stop();
      await deps.background.drain();
      await deps.marks.flush();
      await events.close();
    },
  };
}
