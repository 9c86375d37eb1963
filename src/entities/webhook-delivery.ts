/**
 * One event for one endpoint: the webhook outbox. Written in the transaction of the fact it
 * reports, then leased and sent by the worker (src/domain/webhooks/worker.ts) with retries.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { baseProperties } from './base.ts';
import { WebhookEndpoint } from './webhook-endpoint.ts';

export const deliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

export const WebhookDeliverySchema = defineEntity({
  name: 'WebhookDelivery',
  indexes: [
    {
      name: 'webhook_delivery_endpoint_index',
      properties: ['endpoint', 'createdAt', 'id'],
    },
    {
      name: 'webhook_delivery_due_index',
      expression:
        'create index "webhook_delivery_due_index" on "webhook_delivery" ("next_attempt_at") where "status" = \'pending\'',
    },
    {
      name: 'webhook_delivery_pending_endpoint_index',
      expression:
        'create index "webhook_delivery_pending_endpoint_index" on "webhook_delivery" ("endpoint_id", "next_attempt_at") where "status" = \'pending\'',
    },
    {
      name: 'webhook_delivery_leased_index',
      expression:
        'create index "webhook_delivery_leased_index" on "webhook_delivery" ("endpoint_id") where "lease_until" is not null',
    },
  ],
  properties: {
    ...baseProperties('whd'),
    endpoint: () => p.manyToOne(WebhookEndpoint).deleteRule('cascade'),
    accountId: p.string().length(255),
    /** The wire `type` (`session.verdict`, `webhook.test`, …). */
    eventType: p.text(),
    data: p.json<Record<string, unknown>>(),
    verdictId: p.string().length(255).nullable(),
    status: p.text().$type<DeliveryStatus>().default('pending'),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime().nullable(),
    leaseUntil: p.datetime().nullable(),
    lastStatusCode: p.integer().nullable(),
    lastError: p.string().length(255).nullable(),
    responseExcerpt: p.string().length(512).nullable(),
    deliveredAt: p.datetime().nullable(),
  },
});

export class WebhookDelivery extends WebhookDeliverySchema.class {}
WebhookDeliverySchema.setClass(WebhookDelivery);
