/**
 * What the challenge-session operations need, built once per app (`ChallengeDeps`) and paired with
 * the caller's own EntityManager fork per operation (`DomainContext`).
 *
 * Operations take `(ctx, principal, input)`: the faces pass `withEm(deps, request.em)`; jobs fork
 * their own. The clock is injected so tests can freeze or advance time; every timestamp written
 * or compared comes from it, never from the database's `now()`, so one source of time decides.
 */
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { NumberType } from '../entities/challenge-session.ts';
import type { EventBus } from '../events/bus.ts';
import type { Sealer } from './messages/sealer.ts';
import type { SessionMetrics } from './session-metrics.ts';
import type { TargetPolicy } from './sessions/target-policy.ts';
import type { PublishedMarks } from './verdicts/published-marks.ts';
import type { WaiterRegistry } from './verdicts/waiters.ts';
import type { WebhookService } from './webhooks/worker.ts';

export interface ChallengeSettings {
  /** Seconds a session stays active (SESSION_TTL); a reroute renews it. */
  sessionTtl: number;
  /** Seconds a released number rests before it may serve another session. */
  quarantine: number;
  /** Seconds raw bodies and parsed codes are kept. */
  retention: number;
  inboxDomain: string;
  freeTierMonthlySessions: number;
  /** The number type sms_otp sessions get unless they ask: programmable when any is configured. */
  defaultNumberType: NumberType;
  targetPolicy: TargetPolicy;
}

/** The small part of a pino logger the domain uses (never given bodies or codes). */
export interface DomainLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface ChallengeDeps {
  orm: MikroORM;
  events: EventBus;
  settings: ChallengeSettings;
  sealer: Sealer;
  waiters: WaiterRegistry;
  clock: () => Date;
  /**
   * Runs `callback` once `ms` have passed on `clock`; returns a cancel function. Timers that must
   * follow the injected clock (a TOTP wait holding for the next time step) use it, so tests move
   * time instead of sleeping.
   */
  after: (ms: number, callback: () => void) => () => void;
  log: DomainLog;
  /** Work started after an answer (events for dashboards): tracked so stop() can wait for it. */
  background: Background;
  /** The verdict outbox's marks, written in batches. */
  marks: PublishedMarks;
  /** Customer webhooks: settings and the delivery worker (`wake()` after queueing one). */
  webhooks: WebhookService;
  /** Sessions opened, verdicts delivered and their latency, for /metrics. */
  metrics: SessionMetrics;
}

export interface DomainContext extends ChallengeDeps {
  em: EntityManager;
}

/**
 * What an operation that only reads and writes rows needs: its EntityManager and the clock. The
 * agent operations (domain/agents) take it, so faces without the whole challenge runtime (the
 * authorization server's grants) can call them with the runtime's clock.
 */
export type TimedContext = Pick<DomainContext, 'em' | 'clock'>;

export const withEm = (deps: ChallengeDeps, em: EntityManager): DomainContext => ({ ...deps, em });

/** A fresh fork for a job or an operation that has no request of its own. */
export const forked = (deps: ChallengeDeps): DomainContext =>
  withEm(deps, deps.orm.em.fork() as EntityManager);

export class Background {
  readonly #pending = new Set<Promise<unknown>>();

  /** Runs `task` without awaiting it; its failure is logged, never unhandled. */
  run(task: () => Promise<unknown>, onError: (error: unknown) => void) {
    const promise = task().catch(onError);
    this.#pending.add(promise);
    void promise.finally(() => this.#pending.delete(promise));
  }

  async drain() {
    while (this.#pending.size) await Promise.allSettled([...this.#pending]);
  }
}
