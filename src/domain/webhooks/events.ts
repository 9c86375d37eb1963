/**
 * Webhook events and the outbox they are written to.
 *
 * Every fact a customer may hear about (a session opened, a verdict, an expiry, a close, an agent
 * claimed or revoked) is written to `webhook_delivery` — one row per subscribed endpoint — by the
 * very statement or transaction that records the fact, so an event is never lost after a commit
 * and never sent for a change that rolled back. The delivery worker (worker.ts) sends the rows.
 *
 * `enqueueCte` is a CTE fragment for facts recorded in one statement; `enqueueWebhookEvent` is
 * the same insert as its own statement inside a caller's transaction. Row data never holds a code
 * or link: a `session.verdict` row points at its verdict, whose sealed secret is opened at send
 * time (and is gone after MESSAGE_RETENTION, like every stored code).
 */
import type { EntityManager } from '@mikro-orm/postgresql';

export const webhookEventTypes = [
  'session.opened',
  'session.verdict',
  'session.expired',
  'session.closed',
  'agent.claimed',
  'agent.revoked',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];
/** Sent only on request (`sendTestEvent`), whatever the endpoint subscribed to. */
export const TEST_EVENT = 'webhook.test';

/** A new delivery id, also its `webhook-id`: made in SQL so one statement can fan out to many. */
export const DELIVERY_ID_SQL = `'whd_' || replace(gen_random_uuid()::text, '-', '')`;

/**
 * A CTE named `name` that writes one delivery per endpoint subscribed to each row of `source`, a
 * SELECT yielding `account_id, event_type, data (jsonb), verdict_id, occurred_at`.
 */
export function enqueueCte(name: string, source: string): string {
  return `${name} as (
    insert into webhook_delivery (id, created_at, updated_at, endpoint_id, account_id, event_type,
      data, verdict_id, status, attempts, next_attempt_at)
    select ${DELIVERY_ID_SQL}, src.occurred_at, src.occurred_at, e.id, e.account_id,
      src.event_type, src.data, src.verdict_id, 'pending', 0, src.occurred_at
    from (${source}) src
    join webhook_endpoint e on e.account_id = src.account_id and e.disabled_at is null
      and (e.events is null or src.event_type = any(e.events))
    returning id)`;
}

export interface WebhookEvent {
  accountId: string;
  type: WebhookEventType;
  data: Record<string, unknown>;
  at: Date;
  verdictId?: string | null;
}

/** Writes `event`'s deliveries with `em` — call it inside the transaction recording the fact. */
export async function enqueueWebhookEvent(em: EntityManager, event: WebhookEvent) {
  await em.execute(
    `with ${enqueueCte(
      'q',
      `select ?::text as account_id, ?::text as event_type, ?::jsonb as data,
         ?::text as verdict_id, ?::timestamptz as occurred_at`,
    )} select count(*) from q`,
    [event.accountId, event.type, JSON.stringify(event.data), event.verdictId ?? null, event.at],
  );
}
