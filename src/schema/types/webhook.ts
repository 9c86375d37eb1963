/**
 * Customer webhooks: the account's endpoints (the signing secret shown once, at creation or
 * rotation), their deliveries, a test event and re-sending. Every field needs `webhooks:manage`;
 * /v1/webhooks and the MCP face are mappings onto these. Another account's endpoint or delivery
 * is `not_found`, like a missing one.
 */

import {
  createWebhookEndpoint,
  type DeliveryView,
  deleteWebhookEndpoint,
  type EndpointView,
  listDeliveries,
  listWebhookEndpoints,
  retryDelivery,
  rotateWebhookSecret,
  sendTestEvent,
} from '../../domain/webhooks/endpoints.ts';
import { type WebhookEventType, webhookEventTypes } from '../../domain/webhooks/events.ts';
import { builder } from '../builder.ts';
import { domainOf } from '../context.ts';
import { WebhookDeliveryStatusEnum } from './enums.ts';

/** The GraphQL name of an event type (`session.opened` → `SESSION_OPENED`). */
export const eventTypeName = (type: string) => type.replace('.', '_').toUpperCase();

const WebhookEventTypeEnum = builder.enumType('WebhookEventType', {
  description:
    'An event a webhook endpoint may subscribe to; the wire `type` is the value in lower case with a dot (`session.verdict`).',
  values: Object.fromEntries(
    webhookEventTypes.map((type) => [eventTypeName(type), { value: type }]),
  ) as Record<string, { value: WebhookEventType }>,
});

const WebhookEndpointType = builder.objectRef<EndpointView>('WebhookEndpoint').implement({
  description:
    'Where the account receives events, signed per Standard Webhooks. The secret is never shown again after creation or rotation.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The endpoint id (`whe_…`).' }),
    url: t.exposeString('url', { description: 'Where events are POSTed (https).' }),
    events: t.field({
      type: [WebhookEventTypeEnum],
      nullable: true,
      description: 'The event types sent to it; null means all of them.',
      resolve: (e) => e.events as WebhookEventType[] | null,
    }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When the endpoint was added.',
      resolve: (e) => e.created_at,
    }),
    failingSince: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'Since when every attempt has failed; null while it is healthy.',
      resolve: (e) => e.failing_since,
    }),
    disabledAt: t.field({
      type: 'DateTime',
      nullable: true,
      description:
        'When it was disabled after 5 days of failures; nothing is sent to it meanwhile. Re-sending a delivery enables it again.',
      resolve: (e) => e.disabled_at,
    }),
    previousSecretExpiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description:
        'After a rotation: until when the previous secret still signs (both signatures are sent).',
      resolve: (e) => e.previous_secret_expires_at,
    }),
  }),
});

const WebhookSecretType = builder
  .objectRef<{ endpoint: EndpointView; secret: string }>('WebhookEndpointWithSecret')
  .implement({
    description: 'An endpoint and its signing secret (`whsec_…`), shown this once.',
    fields: (t) => ({
      endpoint: t.field({
        type: WebhookEndpointType,
        description: 'The endpoint, as listings show it.',
        resolve: (r) => r.endpoint,
      }),
      secret: t.exposeString('secret', {
        description: 'The signing secret for Standard Webhooks verifiers; store it now.',
      }),
    }),
  });

const WebhookDeliveryType = builder.objectRef<DeliveryView>('WebhookDelivery').implement({
  description:
    'One event for one endpoint; its id is the `webhook-id` header, the same on every attempt.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The delivery id (`whd_…`) = `webhook-id`.' }),
    endpointId: t.exposeID('endpoint_id', { description: 'The endpoint it goes to.' }),
    eventType: t.exposeString('event_type', {
      description: 'The event `type` on the wire (`session.verdict`, `webhook.test`, …).',
    }),
    status: t.field({
      type: WebhookDeliveryStatusEnum,
      description: 'Where the delivery stands.',
      resolve: (d) => d.status,
    }),
    attempts: t.exposeInt('attempts', { description: 'Attempts made so far.' }),
    lastStatusCode: t.exposeInt('last_status_code', {
      nullable: true,
      description: "The receiver's HTTP status on the last attempt; null if none came.",
    }),
    lastError: t.exposeString('last_error', {
      nullable: true,
      description: 'Why the last attempt failed (`HTTP 500`, a timeout, a refused address).',
    }),
    nextAttemptAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the next attempt is due (pending only).',
      resolve: (d) => d.next_attempt_at,
    }),
    createdAt: t.field({
      type: 'DateTime',
      description: 'When the event happened.',
      resolve: (d) => d.created_at,
    }),
    deliveredAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When a 2xx came back.',
      resolve: (d) => d.delivered_at,
    }),
  }),
});

const WebhookDeliveryPageType = builder
  .objectRef<{ deliveries: DeliveryView[]; hasMore: boolean }>('WebhookDeliveryPage')
  .implement({
    description: 'Deliveries, newest first.',
    fields: (t) => ({
      deliveries: t.field({
        type: [WebhookDeliveryType],
        description: 'This page.',
        resolve: (p) => p.deliveries,
      }),
      hasMore: t.exposeBoolean('hasMore', {
        description: 'Whether older ones exist: ask again with the last id as `after`.',
      }),
    }),
  });

const account = (context: { principal: { accountId: string } | null }) =>
  context.principal!.accountId;

builder.queryFields((t) => ({
  webhookEndpoints: t.field({
    type: [WebhookEndpointType],
    description: "The account's webhook endpoints, newest first. Needs `webhooks:manage`.",
    authScopes: { scope: 'webhooks:manage' },
    resolve: (_root, _args, context) => listWebhookEndpoints(domainOf(context), account(context)),
  }),
  webhookDeliveries: t.field({
    type: WebhookDeliveryPageType,
    description: "An endpoint's deliveries, newest first. Needs `webhooks:manage`.",
    authScopes: { scope: 'webhooks:manage' },
    complexity: (args) => args.first ?? 20,
    args: {
      endpointId: t.arg.id({ required: true, description: 'The endpoint (`whe_…`).' }),
      first: t.arg.int({ required: false, description: 'How many (1–100, default 20).' }),
      after: t.arg.string({ required: false, description: 'The last delivery id seen.' }),
    },
    resolve: (_root, args, context) =>
      listDeliveries(domainOf(context), account(context), String(args.endpointId), {
        first: args.first,
        after: args.after,
      }),
  }),
}));

builder.mutationFields((t) => ({
  createWebhookEndpoint: t.field({
    type: WebhookSecretType,
    description:
      'Adds an endpoint (https, public address). Its secret is in this answer only. Needs `webhooks:manage`.',
    authScopes: { scope: 'webhooks:manage' },
    args: {
      url: t.arg.string({ required: true, description: 'Where to POST events (https).' }),
      events: t.arg({
        type: [WebhookEventTypeEnum],
        required: false,
        description: 'The event types to send (default: all).',
      }),
    },
    resolve: (_root, args, context) =>
      createWebhookEndpoint(domainOf(context), account(context), {
        url: args.url,
        events: args.events,
      }),
  }),
  deleteWebhookEndpoint: t.field({
    type: 'Boolean',
    description: 'Deletes an endpoint; nothing more is sent to it. Needs `webhooks:manage`.',
    authScopes: { scope: 'webhooks:manage' },
    args: { id: t.arg.id({ required: true, description: 'The endpoint (`whe_…`).' }) },
    resolve: async (_root, args, context) => {
      await deleteWebhookEndpoint(domainOf(context), account(context), String(args.id));
      return true;
    },
  }),
  rotateWebhookSecret: t.field({
    type: WebhookSecretType,
    description:
      'A new signing secret (in this answer only); the old one keeps signing for 24 h beside it. Needs `webhooks:manage`.',
    authScopes: { scope: 'webhooks:manage' },
    args: { id: t.arg.id({ required: true, description: 'The endpoint (`whe_…`).' }) },
    resolve: (_root, args, context) =>
      rotateWebhookSecret(domainOf(context), account(context), String(args.id)),
  }),
  sendWebhookTestEvent: t.field({
    type: WebhookDeliveryType,
    description:
      'Sends a `webhook.test` event to the endpoint now, whatever it subscribed to. Needs `webhooks:manage`.',
    authScopes: { scope: 'webhooks:manage' },
    args: { id: t.arg.id({ required: true, description: 'The endpoint (`whe_…`).' }) },
    resolve: (_root, args, context) =>
      sendTestEvent(domainOf(context), account(context), String(args.id)),
  }),
  retryWebhookDelivery: t.field({
    type: WebhookDeliveryType,
    description:
      'Sends a delivery again now, with its original `webhook-id`; enables a disabled endpoint. Needs `webhooks:manage`.',
    authScopes: { scope: 'webhooks:manage' },
    args: {
      endpointId: t.arg.id({ required: true, description: 'The endpoint (`whe_…`).' }),
      deliveryId: t.arg.id({ required: true, description: 'The delivery (`whd_…`).' }),
    },
    resolve: (_root, args, context) =>
      retryDelivery(
        domainOf(context),
        account(context),
        String(args.endpointId),
        String(args.deliveryId),
      ),
  }),
}));
