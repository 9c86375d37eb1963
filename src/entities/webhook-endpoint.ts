/**
 * A customer's webhook endpoint: where the account's events are POSTed, signed per Standard
 * Webhooks. `secret` (and `previousSecret` for 24 h after a rotation) are sealed at rest.
 * The operations are raw SQL in src/domain/webhooks/; this entity is the table's one description.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { baseProperties } from './base.ts';

export const WebhookEndpointSchema = defineEntity({
  name: 'WebhookEndpoint',
  indexes: [{ name: 'webhook_endpoint_account_id_index', properties: ['accountId', 'createdAt'] }],
  properties: {
    ...baseProperties('whe'),
    accountId: p.string().length(255),
    url: p.string().length(2048),
    /** The event types sent to it; null means all of them. */
    events: p.array().nullable(),
    secret: p.blob(),
    previousSecret: p.blob().nullable(),
    previousSecretExpiresAt: p.datetime().nullable(),
    failingSince: p.datetime().nullable(),
    disabledAt: p.datetime().nullable(),
  },
});

export class WebhookEndpoint extends WebhookEndpointSchema.class {}
WebhookEndpointSchema.setClass(WebhookEndpoint);
