/**
 * The webhook delivery worker: one per instance, all instances sharing the one outbox table.
 *
 * Claiming: a single statement picks due deliveries `FOR UPDATE SKIP LOCKED` and leases them
 * (`lease_until`), so instances never send the same attempt twice while both are alive, and a
 * lease left by a dead instance lapses and the delivery is claimed again (at-least-once, same
 * `webhook-id`). No transaction is held while a receiver answers: on the embedded database a
 * long transaction would stall every other connection, and on PostgreSQL it would pin a row lock
 * for up to the 10 s attempt. (Why not pg-boss or graphile-worker: see docs/security/webhooks.md.)
 *
 * Isolation: at most PER_ENDPOINT attempts in flight per endpoint across all instances (counted
 * from live leases in the claim itself) and MAX_IN_FLIGHT per instance; every attempt has its own
 * deadline; nothing here runs on the verdict path (ingest only inserts rows). A slow receiver
 * thus holds at most its own PER_ENDPOINT slots, never a waiter and never another endpoint.
 *
 * Schedule (Standard Webhooks / Svix): retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h,
 * then `failed`. An endpoint that has failed without a single success for 5 days is disabled.
 * The clock is the domain's injected clock, so tests move time instead of waiting.
 */

import type { MikroORM } from '@mikro-orm/postgresql';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { RowOf } from '../../entities/row.ts';
import type { Verdict } from '../../entities/verdict.ts';
import type { WebhookDelivery } from '../../entities/webhook-delivery.ts';
import type { WebhookEndpoint } from '../../entities/webhook-endpoint.ts';
import type { Sealer } from '../messages/sealer.ts';
import { openSecret } from './secrets.ts';
import {
  type AttemptOutcome,
  createSenderAgents,
  type SenderAgents,
  sendSigned,
} from './sender.ts';

/** Seconds to wait after the n-th failed attempt (n = 1…7); the 8th failure is final. */
export const RETRY_DELAYS_S = [5, 300, 1800, 7200, 18_000, 36_000, 36_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_S.length + 1;
/** An endpoint failing (no success) for this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 3600 * 1000;
const PER_ENDPOINT = 4;
const MAX_IN_FLIGHT = 256;
const POLL_MS = 250;
const CLAIM_BATCH = 100;
const HOUSEKEEPING_MS = 60_000;
/** Finished deliveries are kept this long for the listings, then deleted. */
const KEEP_FINISHED_MS = 30 * 24 * 3600 * 1000;
const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/**
 * What the worker uses of the runtime (the domain context satisfies it). Named here rather than
 * imported, so the context, which holds a WebhookService, and this module do not import each other.
 */
export interface WebhookWorkerDeps {
  orm: MikroORM;
  sealer: Sealer;
  clock: () => Date;
  log: { warn(object: object, message: string): void };
}

export interface WebhookSettings {
  allowPrivate: boolean;
  /** Milliseconds one attempt may take (10 s by default). */
  attemptTimeoutMs: number;
}

/** A claimed delivery and the endpoint it goes to. */
type ClaimedRow = Pick<
  RowOf<WebhookDelivery>,
  'id' | 'endpoint_id' | 'event_type' | 'data' | 'verdict_id' | 'attempts' | 'created_at'
> & {
  /** Set by the claim: the lease this attempt holds. */
  lease_until: NonNullable<RowOf<WebhookDelivery>['lease_until']>;
} & Pick<
    RowOf<WebhookEndpoint>,
    'url' | 'secret' | 'previous_secret' | 'previous_secret_expires_at'
  >;

function webhookMetrics() {
  return {
    deliveries: new Counter({
      name: 'latchkey_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome (delivered, http_error, network_error, timeout, blocked)',
      labelNames: ['outcome'] as const,
      registers: [],
    }),
    latency: new Histogram({
      name: 'latchkey_webhook_delivery_latency_seconds',
      help: 'From the event commit to its successful delivery',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60, 600, 3600, 36_000, 172_800],
      registers: [],
    }),
    attempt: new Histogram({
      name: 'latchkey_webhook_attempt_seconds',
      help: 'Duration of one delivery attempt (until the receiver answered or the deadline)',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [],
    }),
  };
}

/** The webhook side of the runtime: settings, the worker, its metrics. */
export class WebhookService {
  readonly allowPrivate: boolean;
  readonly attemptTimeoutMs: number;
  readonly metrics = webhookMetrics();
  #deps: WebhookWorkerDeps | undefined;
  // Sockets per host up to the instance's whole budget: many customers' endpoints may share a
  // host (a SaaS inbox), and the per-endpoint limit is enforced by the claim, not by the agent.
  #agents: SenderAgents = createSenderAgents(MAX_IN_FLIGHT);
  #timer: NodeJS.Timeout | undefined;
  #housekeeping: NodeJS.Timeout | undefined;
  #pumping: Promise<void> | undefined;
  #again = false;
  #wakeQueued = false;
  #stopped = true;
  #inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();

  constructor(settings: WebhookSettings) {
    this.allowPrivate = settings.allowPrivate;
    this.attemptTimeoutMs = settings.attemptTimeoutMs;
  }

  /** Starts polling the outbox with `deps` (the runtime's, including its clock). */
  start(deps: WebhookWorkerDeps) {
    this.#deps = deps;
    this.#stopped = false;
    this.#timer = setInterval(() => this.wake(), POLL_MS).unref();
    this.#housekeeping = setInterval(() => void this.#tidy(), HOUSEKEEPING_MS).unref();
    this.wake();
  }

  /** Registers the metrics (and the queue-depth gauge, read from the database) in `registry`. */
  register(registry: Registry) {
    for (const metric of Object.values(this.metrics)) registry.registerMetric(metric);
    const orm = () => this.#deps?.orm;
    registry.registerMetric(
      new Gauge({
        name: 'latchkey_webhook_queue_depth',
        help: 'Webhook deliveries waiting to be sent (due now or scheduled for a retry)',
        registers: [],
        async collect() {
          const db = orm();
          if (!db) return;
          try {
            const [row] = await db.em
              .fork()
              .execute<{ n: number }[]>(
                "select count(*)::int as n from webhook_delivery where status = 'pending'",
              );
            this.set(row?.n ?? 0);
          } catch {
            // The database is unreachable: the gauge keeps its last value; /readyz says why.
          }
        },
      }),
    );
  }

  /** Looks for due deliveries now (after a commit that queued one, or when a slot frees up). */
  wake() {
    if (this.#stopped || this.#wakeQueued) return;
    this.#wakeQueued = true;
    setImmediate(() => {
      this.#wakeQueued = false;
      void this.#pump();
    });
  }

  /**
   * Claims what is due now and waits until every attempt in flight has finished: for operators'
   * one-off runs and for tests that moved the clock (no sleeping until the next poll).
   */
  async flush() {
    await this.#pump();
    await Promise.allSettled([...this.#inFlight.values()].map((a) => a.done));
  }

  /** Stops claiming, aborts attempts in flight and hands their deliveries back at once. */
  async stop() {
    this.#stopped = true;
    clearInterval(this.#timer);
    clearInterval(this.#housekeeping);
    await this.#pumping;
    for (const attempt of this.#inFlight.values()) attempt.abort.abort();
    await Promise.allSettled([...this.#inFlight.values()].map((a) => a.done));
    this.#agents['http:'].destroy();
    this.#agents['https:'].destroy();
  }

  #pump(): Promise<void> {
    if (this.#pumping) {
      this.#again = true;
      return this.#pumping;
    }
    this.#pumping = (async () => {
      do {
        this.#again = false;
        const free = MAX_IN_FLIGHT - this.#inFlight.size;
        if (free <= 0 || this.#stopped) break;
        const claimed = await this.#claim(Math.min(free, CLAIM_BATCH));
        for (const row of claimed) this.#dispatch(row);
        if (claimed.length === Math.min(free, CLAIM_BATCH)) this.#again = true;
      } while (this.#again && !this.#stopped);
    })()
      .catch((error) => this.#deps?.log.warn({ err: error }, 'webhook claim failed'))
      .finally(() => {
        this.#pumping = undefined;
      });
    return this.#pumping;
  }

  async #claim(limit: number): Promise<ClaimedRow[]> {
    const deps = this.#deps!;
    const now = deps.clock();
    const leaseUntil = new Date(now.getTime() + this.attemptTimeoutMs + 5_000);
    // Per endpoint with spare capacity (fewer than PER_ENDPOINT live leases), its oldest due
    // deliveries: a flood queued for one endpoint can never hide another endpoint's work.
    return deps.orm.em.fork().execute<ClaimedRow[]>(
      `with busy as (
         select endpoint_id, count(*)::int as n from webhook_delivery
         where lease_until is not null and lease_until > ? and status = 'pending'
         group by endpoint_id),
       picked as (
         select d.id, d.next_attempt_at
         from webhook_endpoint e
         left join busy b on b.endpoint_id = e.id
         cross join lateral (
           select d.id, d.next_attempt_at from webhook_delivery d
           where d.endpoint_id = e.id and d.status = 'pending' and d.next_attempt_at <= ?
             and (d.lease_until is null or d.lease_until <= ?)
           order by d.next_attempt_at
           limit greatest(0, ? - coalesce(b.n, 0))
           for update skip locked) d
         where e.disabled_at is null
         order by d.next_attempt_at
         limit ?)
       update webhook_delivery d set lease_until = ?, attempts = d.attempts + 1, updated_at = ?
       from picked, webhook_endpoint e
       where d.id = picked.id and e.id = d.endpoint_id
       returning d.id, d.endpoint_id, d.event_type, d.data, d.verdict_id, d.attempts,
         d.created_at, d.lease_until, e.url, e.secret, e.previous_secret,
         e.previous_secret_expires_at`,
      [now, now, now, PER_ENDPOINT, limit, leaseUntil, now],
    );
  }

  #dispatch(row: ClaimedRow) {
    const abort = new AbortController();
    const done = this.#attempt(row, abort.signal)
      .catch((error) =>
        this.#deps?.log.warn({ err: error, deliveryId: row.id }, 'webhook attempt failed'),
      )
      .finally(() => {
        this.#inFlight.delete(row.id);
        this.wake();
      });
    this.#inFlight.set(row.id, { abort, done });
  }

  async #attempt(row: ClaimedRow, signal: AbortSignal) {
    const deps = this.#deps!;
    const em = deps.orm.em.fork();
    const data = { ...row.data };
    if (row.event_type === 'session.verdict' && row.verdict_id) {
      // The code or link, opened for this attempt only; never copied into the outbox row.
      const [verdict] = await em.execute<Pick<RowOf<Verdict>, 'secret'>[]>(
        'select secret from verdict where id = ?',
        [row.verdict_id],
      );
      if (verdict?.secret) {
        const secret = JSON.parse(deps.sealer.open(verdict.secret, row.verdict_id).toString()) as {
          otp_code: string | null;
          magic_link: string | null;
        };
        if (secret.otp_code) data.otp_code = secret.otp_code;
        if (secret.magic_link) data.magic_link = secret.magic_link;
      }
    }
    const now = deps.clock();
    const secrets = [openSecret(deps.sealer, row.endpoint_id, 'current', row.secret)];
    if (
      row.previous_secret &&
      row.previous_secret_expires_at &&
      new Date(row.previous_secret_expires_at) > now
    ) {
      secrets.push(openSecret(deps.sealer, row.endpoint_id, 'previous', row.previous_secret));
    }
    const createdAt = new Date(row.created_at);
    const body = JSON.stringify({
      type: row.event_type,
      timestamp: createdAt.toISOString(),
      data,
    });
    const started = performance.now();
    const outcome = await sendSigned(
      row.url,
      { id: row.id, timestamp: now, body, secrets },
      {
        timeoutMs: this.attemptTimeoutMs,
        allowPrivate: this.allowPrivate,
        userAgent: 'Latchkey-Webhooks/1',
        agents: this.#agents,
        signal,
      },
    );
    if (!outcome.ok && outcome.kind === 'aborted') {
      // Shutdown: hand the delivery back untouched, for this or another instance to send.
      await em.execute(
        `update webhook_delivery set lease_until = null, attempts = attempts - 1
         where id = ? and lease_until = ?`,
        [row.id, new Date(row.lease_until)],
      );
      return;
    }
    this.metrics.attempt.observe((performance.now() - started) / 1000);
    const finished = deps.clock();
    await this.#record(row, outcome, finished);
  }

  async #record(row: ClaimedRow, outcome: AttemptOutcome, now: Date) {
    const deps = this.#deps!;
    const em = deps.orm.em.fork();
    const lease = new Date(row.lease_until);
    if (outcome.ok) {
      this.metrics.deliveries.labels('delivered').inc();
      this.metrics.latency.observe((now.getTime() - new Date(row.created_at).getTime()) / 1000);
      await em.execute(
        `with d as (
           update webhook_delivery set status = 'delivered', delivered_at = ?, next_attempt_at = null,
             lease_until = null, last_status_code = ?, last_error = null, response_excerpt = ?,
             updated_at = ?
           where id = ? and lease_until = ?
           returning endpoint_id)
         update webhook_endpoint e set failing_since = null, updated_at = ?
         from d where e.id = d.endpoint_id and e.failing_since is not null`,
        [now, outcome.statusCode, outcome.excerpt, now, row.id, lease, now],
      );
      return;
    }
    this.metrics.deliveries.labels(outcome.kind).inc();
    const final = row.attempts >= MAX_ATTEMPTS;
    const next = final ? null : new Date(now.getTime() + RETRY_DELAYS_S[row.attempts - 1]! * 1000);
    const rows = await em.execute<Pick<RowOf<WebhookEndpoint>, 'disabled_at'>[]>(
      `with d as (
         update webhook_delivery set status = ?, next_attempt_at = ?, lease_until = null,
           last_status_code = ?, last_error = ?, response_excerpt = ?, updated_at = ?
         where id = ? and lease_until = ?
         returning endpoint_id)
       update webhook_endpoint e set failing_since = coalesce(e.failing_since, ?),
         disabled_at = case when e.disabled_at is null and coalesce(e.failing_since, ?) <= ?
                            then ?::timestamptz else e.disabled_at end,
         updated_at = ?
       from d where e.id = d.endpoint_id
       returning e.disabled_at`,
      [
        final ? 'failed' : 'pending',
        next,
        outcome.statusCode,
        outcome.error.slice(0, 255),
        outcome.excerpt,
        now,
        row.id,
        lease,
        now,
        now,
        new Date(now.getTime() - DISABLE_AFTER_MS),
        now,
        now,
      ],
    );
    if (rows[0]?.disabled_at && new Date(rows[0].disabled_at).getTime() === now.getTime()) {
      deps.log.warn(
        { endpointId: row.endpoint_id },
        'webhook endpoint disabled after 5 days of failures',
      );
    }
  }

  /** Deletes what no one needs any more: old finished deliveries, lapsed idempotency keys. */
  async #tidy() {
    const deps = this.#deps;
    if (!deps || this.#stopped) return;
    const now = deps.clock().getTime();
    const em = deps.orm.em.fork();
    try {
      await em.execute(
        `delete from webhook_delivery where id in (
           select id from webhook_delivery
           where status <> 'pending' and updated_at < ? limit 1000)`,
        [new Date(now - KEEP_FINISHED_MS)],
      );
      await em.execute(
        `delete from idempotency_key where (credential_id, key) in (
           select credential_id, key from idempotency_key where created_at < ? limit 1000)`,
        [new Date(now - IDEMPOTENCY_TTL_MS)],
      );
    } catch (error) {
      deps.log.warn({ err: error }, 'webhook housekeeping failed');
    }
  }
}
