/**
 * Webhook endpoints of an account and their deliveries: create (the secret shown once), list,
 * delete, rotate the secret, send a test event, list deliveries, re-send one.
 *
 * Every face (GraphQL, and through it /v1 and MCP; the console) creates endpoints through
 * `createWebhookEndpoint` only, so account-level gates (a verified email, plan limits) live in one
 * place. Every read and write is confined to the caller's account: another account's endpoint is
 * indistinguishable from a missing one (`not_found`).
 */

import { z } from 'zod';
import { newId } from '../../entities/base.ts';
import type { RowOf } from '../../entities/row.ts';
import type { DeliveryStatus, WebhookDelivery } from '../../entities/webhook-delivery.ts';
import type { WebhookEndpoint } from '../../entities/webhook-endpoint.ts';
import { AppError, validate } from '../../errors/index.ts';
import { requireVerifiedAccount } from '../accounts/verification.ts';
import type { DomainContext } from '../context.ts';
import { DELIVERY_ID_SQL, TEST_EVENT, webhookEventTypes } from './events.ts';
import { newWebhookSecret, openSecret, sealSecret } from './secrets.ts';
import { checkEndpointUrl } from './target-guard.ts';

/** Endpoints one account may hold: enough for every real integration, bounded fan-out per event. */
export const MAX_ENDPOINTS_PER_ACCOUNT = 20;
/** How long the secret replaced by a rotation still signs (both signatures are sent meanwhile). */
export const PREVIOUS_SECRET_GRACE_MS = 24 * 3600 * 1000;

export const createEndpointInput = z.strictObject({
  url: z.string().trim().min(1).max(4096),
  events: z
    .array(z.enum(webhookEventTypes))
    .min(1)
    .max(webhookEventTypes.length * 2)
    .nullish(),
});
export type CreateEndpointInput = z.input<typeof createEndpointInput>;

/** The columns every endpoint query selects, each checked against the entity. */
const endpointColumns = [
  'id',
  'url',
  'events',
  'created_at',
  'failing_since',
  'disabled_at',
  'previous_secret_expires_at',
] as const satisfies readonly (keyof RowOf<WebhookEndpoint>)[];
const deliveryColumns = [
  'id',
  'endpoint_id',
  'event_type',
  'status',
  'attempts',
  'last_status_code',
  'last_error',
  'next_attempt_at',
  'created_at',
  'delivered_at',
] as const satisfies readonly (keyof RowOf<WebhookDelivery>)[];
const ENDPOINT_COLUMNS = endpointColumns.join(', ');
const DELIVERY_COLUMNS = deliveryColumns.join(', ');

type EndpointRow = Pick<RowOf<WebhookEndpoint>, (typeof endpointColumns)[number]>;
type DeliveryRow = Pick<RowOf<WebhookDelivery>, (typeof deliveryColumns)[number]>;

/** A row with its timestamps as Dates (the driver may hand them over as strings). */
type Dated<R> = { [K in keyof R]: Date extends R[K] ? Exclude<R[K], string> : R[K] };

/** An endpoint as the operations return it; `events` null means all. */
export type EndpointView = Dated<EndpointRow>;
export type DeliveryView = Dated<DeliveryRow>;
export type { DeliveryStatus };

const date = (value: string | Date | null) => (value === null ? null : new Date(value));

const endpointView = (row: EndpointRow): EndpointView => ({
  ...row,
  events: row.events ?? null,
  created_at: new Date(row.created_at),
  failing_since: date(row.failing_since),
  disabled_at: date(row.disabled_at),
  previous_secret_expires_at: date(row.previous_secret_expires_at),
});

const deliveryView = (row: DeliveryRow): DeliveryView => ({
  ...row,
  last_status_code: row.last_status_code ?? null,
  last_error: row.last_error ?? null,
  next_attempt_at: date(row.next_attempt_at),
  created_at: new Date(row.created_at),
  delivered_at: date(row.delivered_at),
});

const noEndpoint = () => new AppError('not_found', 'No such webhook endpoint');

/** The one way an endpoint is made (REST, GraphQL, MCP and the console all come here). */
export async function createWebhookEndpoint(
  ctx: DomainContext,
  accountId: string,
  rawInput: CreateEndpointInput,
): Promise<{ endpoint: EndpointView; secret: string }> {
  const input = validate(createEndpointInput, rawInput);
  const url = checkEndpointUrl(input.url, ctx.webhooks.allowPrivate);
  // Every face creates endpoints here, so this is the one place the gate stands: an account whose
  // email is unverified may not send its events anywhere.
  await requireVerifiedAccount(ctx.em, { accountId });
  const events = input.events ? [...new Set(input.events)] : null;
  const id = newId('whe');
  const secret = newWebhookSecret();
  const sealed = sealSecret(ctx.sealer, id, 'current', secret);
  const now = ctx.clock();
  const row = await ctx.em.transactional(async (tx) => {
    // The account row serialises concurrent creations, so the limit is exact.
    await tx.execute('select id from account where id = ? for update', [accountId]);
    const [{ n }] = (await tx.execute<{ n: number }[]>(
      'select count(*)::int as n from webhook_endpoint where account_id = ?',
      [accountId],
    )) as [{ n: number }];
    if (n >= MAX_ENDPOINTS_PER_ACCOUNT) {
      throw new AppError(
        'webhook_endpoint_limit_reached',
        `An account may have at most ${MAX_ENDPOINTS_PER_ACCOUNT} webhook endpoints`,
      );
    }
    const [inserted] = await tx.execute<EndpointRow[]>(
      `insert into webhook_endpoint (id, created_at, updated_at, account_id, url, events, secret)
       values (?, ?, ?, ?, ?,
         (select array_agg(value) from jsonb_array_elements_text(?::jsonb)), ?)
       returning ${ENDPOINT_COLUMNS}`,
      // As JSON: the driver would spread a JS array into a list of parameters.
      [id, now, now, accountId, url, events ? JSON.stringify(events) : null, sealed],
    );
    return inserted!;
  });
  return { endpoint: endpointView(row), secret };
}

export async function listWebhookEndpoints(
  ctx: DomainContext,
  accountId: string,
): Promise<EndpointView[]> {
  const rows = await ctx.em.execute<EndpointRow[]>(
    `select ${ENDPOINT_COLUMNS} from webhook_endpoint where account_id = ?
     order by created_at desc, id desc`,
    [accountId],
  );
  return rows.map(endpointView);
}

export async function getWebhookEndpoint(
  ctx: DomainContext,
  accountId: string,
  id: string,
): Promise<EndpointView> {
  const [row] = await ctx.em.execute<EndpointRow[]>(
    `select ${ENDPOINT_COLUMNS} from webhook_endpoint where id = ? and account_id = ?`,
    [id, accountId],
  );
  if (!row) throw noEndpoint();
  return endpointView(row);
}

/** Deletes the endpoint and its pending deliveries (nothing more is sent to it). */
export async function deleteWebhookEndpoint(
  ctx: DomainContext,
  accountId: string,
  id: string,
): Promise<void> {
  const rows = await ctx.em.execute<Pick<EndpointRow, 'id'>[]>(
    'delete from webhook_endpoint where id = ? and account_id = ? returning id',
    [id, accountId],
  );
  if (!rows.length) throw noEndpoint();
}

/**
 * A new secret; the one it replaces keeps signing for 24 h (both signatures on every delivery),
 * so a receiver can roll its configuration without a gap. A second rotation within the window
 * replaces the older secret: at most two are ever valid.
 */
export async function rotateWebhookSecret(
  ctx: DomainContext,
  accountId: string,
  id: string,
): Promise<{ endpoint: EndpointView; secret: string }> {
  const now = ctx.clock();
  const secret = newWebhookSecret();
  return ctx.em.transactional(async (tx) => {
    const [current] = await tx.execute<Pick<RowOf<WebhookEndpoint>, 'secret'>[]>(
      'select secret from webhook_endpoint where id = ? and account_id = ? for update',
      [id, accountId],
    );
    if (!current) throw noEndpoint();
    const previous = openSecret(ctx.sealer, id, 'current', current.secret);
    const [row] = await tx.execute<EndpointRow[]>(
      `update webhook_endpoint set secret = ?, previous_secret = ?, previous_secret_expires_at = ?,
         updated_at = ?
       where id = ? returning ${ENDPOINT_COLUMNS}`,
      [
        sealSecret(ctx.sealer, id, 'current', secret),
        sealSecret(ctx.sealer, id, 'previous', previous),
        new Date(now.getTime() + PREVIOUS_SECRET_GRACE_MS),
        now,
        id,
      ],
    );
    return { endpoint: endpointView(row!), secret };
  });
}

/** Queues a `webhook.test` event for this endpoint alone, whatever it subscribed to. */
export async function sendTestEvent(
  ctx: DomainContext,
  accountId: string,
  id: string,
): Promise<DeliveryView> {
  const now = ctx.clock();
  const [row] = await ctx.em.execute<DeliveryRow[]>(
    `insert into webhook_delivery (id, created_at, updated_at, endpoint_id, account_id,
       event_type, data, status, attempts, next_attempt_at)
     select ${DELIVERY_ID_SQL}, ?, ?, e.id, e.account_id, ?, jsonb_build_object('endpoint_id', e.id,
       'message', 'A test event from Latchkey'), 'pending', 0, ?
     from webhook_endpoint e where e.id = ? and e.account_id = ?
     returning ${DELIVERY_COLUMNS}`,
    [now, now, TEST_EVENT, now, id, accountId],
  );
  if (!row) throw noEndpoint();
  ctx.webhooks.wake();
  return deliveryView(row);
}

export async function listDeliveries(
  ctx: DomainContext,
  accountId: string,
  endpointId: string,
  page: { first?: number | null | undefined; after?: string | null | undefined } = {},
): Promise<{ deliveries: DeliveryView[]; hasMore: boolean }> {
  await getWebhookEndpoint(ctx, accountId, endpointId);
  const first = Math.min(Math.max(page.first ?? 20, 1), 100);
  const rows = await ctx.em.execute<DeliveryRow[]>(
    `select ${DELIVERY_COLUMNS} from webhook_delivery d
     where endpoint_id = ?
       and (?::text is null or (created_at, id) < (
         select created_at, id from webhook_delivery where id = ? and endpoint_id = ?))
     order by created_at desc, id desc limit ?`,
    [endpointId, page.after ?? null, page.after ?? null, endpointId, first + 1],
  );
  return { deliveries: rows.slice(0, first).map(deliveryView), hasMore: rows.length > first };
}

/**
 * Sends a delivery again now, with its original `webhook-id` (whatever its status). Re-sending
 * also re-enables a disabled endpoint: it is how a customer says "my receiver is back".
 */
export async function retryDelivery(
  ctx: DomainContext,
  accountId: string,
  endpointId: string,
  deliveryId: string,
): Promise<DeliveryView> {
  const now = ctx.clock();
  const row = await ctx.em.transactional(async (tx) => {
    const [updated] = await tx.execute<DeliveryRow[]>(
      `update webhook_delivery set status = 'pending', next_attempt_at = ?, lease_until = null,
         updated_at = ?
       where id = ? and endpoint_id = ? and account_id = ?
       returning ${DELIVERY_COLUMNS}`,
      [now, now, deliveryId, endpointId, accountId],
    );
    if (!updated) throw new AppError('not_found', 'No such delivery');
    await tx.execute(
      `update webhook_endpoint set disabled_at = null, failing_since = null, updated_at = ?
       where id = ? and disabled_at is not null`,
      [now, endpointId],
    );
    return updated;
  });
  ctx.webhooks.wake();
  return deliveryView(row);
}
