/**
 * /v1/webhooks: customer webhook endpoints and their deliveries, as mappings onto the schema's
 * webhook operations (scope `webhooks:manage`, enforced by the schema). The wire shapes are the
 * ones decisions.md names ("Webhooks to customers").
 */
import { z } from 'zod';
import { webhookDocuments as documents } from './documents.ts';
import { type RestRoute, restRoute } from './rest-route.ts';
import {
  eventTypeIn,
  type WebhookDeliveryData,
  type WebhookEndpointData,
  webhookDeliveryOut,
  webhookDeliverySchema,
  webhookEndpointOut,
  webhookEndpointSchema,
  webhookEventTypeSchema,
} from './shapes.ts';

const withSecret = webhookEndpointSchema.extend({
  secret: z.string().describe('The `whsec_…` signing secret; shown in this answer only'),
});

export const webhookRoutes: RestRoute[] = [
  restRoute({
    method: 'POST',
    path: '/v1/webhooks',
    operationId: 'createWebhookEndpoint',
    scope: 'webhooks:manage',
    summary: 'Add a webhook endpoint; its signing secret is in this response only',
    description:
      'Events are POSTed as Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). `url` must be https and reach a public address. `events` omitted means all. Honours `Idempotency-Key`.',
    status: 201,
    idempotent: true,
    body: z.strictObject({
      url: z.string().max(4096),
      events: z.array(webhookEventTypeSchema).min(1).max(12).nullish(),
    }),
    response: withSecret,
    operation: documents.createWebhookEndpoint,
    variables: ({ body }) => ({ url: body.url, events: body.events?.map(eventTypeIn) }),
    result: (data: {
      createWebhookEndpoint: { secret: string; endpoint: WebhookEndpointData };
    }) => ({
      ...webhookEndpointOut(data.createWebhookEndpoint.endpoint),
      secret: data.createWebhookEndpoint.secret,
    }),
  }),
  restRoute({
    method: 'GET',
    path: '/v1/webhooks',
    operationId: 'listWebhookEndpoints',
    scope: 'webhooks:manage',
    summary: 'List webhook endpoints (secrets are never shown again)',
    response: z.object({ webhooks: z.array(webhookEndpointSchema) }),
    operation: documents.webhookEndpoints,
    variables: () => ({}),
    result: (data: { webhookEndpoints: WebhookEndpointData[] }) => ({
      webhooks: data.webhookEndpoints.map(webhookEndpointOut),
    }),
  }),
  restRoute({
    method: 'DELETE',
    path: '/v1/webhooks/:id',
    operationId: 'deleteWebhookEndpoint',
    scope: 'webhooks:manage',
    summary: 'Delete a webhook endpoint; nothing more is sent to it',
    status: 204,
    response: z.null(),
    operation: documents.deleteWebhookEndpoint,
    variables: ({ params }) => ({ id: params.id }),
    result: () => null,
  }),
  restRoute({
    method: 'POST',
    path: '/v1/webhooks/:id/rotate-secret',
    operationId: 'rotateWebhookSecret',
    scope: 'webhooks:manage',
    summary: 'New signing secret; the old one keeps signing for 24 h beside it',
    response: withSecret,
    operation: documents.rotateWebhookSecret,
    variables: ({ params }) => ({ id: params.id }),
    result: (data: { rotateWebhookSecret: { secret: string; endpoint: WebhookEndpointData } }) => ({
      ...webhookEndpointOut(data.rotateWebhookSecret.endpoint),
      secret: data.rotateWebhookSecret.secret,
    }),
  }),
  restRoute({
    method: 'POST',
    path: '/v1/webhooks/:id/test',
    operationId: 'sendWebhookTestEvent',
    scope: 'webhooks:manage',
    summary: 'Send a `webhook.test` event to the endpoint now',
    status: 202,
    response: webhookDeliverySchema,
    operation: documents.sendWebhookTestEvent,
    variables: ({ params }) => ({ id: params.id }),
    result: (data: { sendWebhookTestEvent: WebhookDeliveryData }) =>
      webhookDeliveryOut(data.sendWebhookTestEvent),
  }),
  restRoute({
    method: 'GET',
    path: '/v1/webhooks/:id/deliveries',
    operationId: 'listWebhookDeliveries',
    scope: 'webhooks:manage',
    summary: "An endpoint's deliveries, newest first",
    description: 'When `has_more` is true, call again with the last `id` as `after`.',
    query: z.strictObject({
      after: z.string().min(1).max(255).optional(),
      limit: z.coerce.number().int().min(1).max(100).optional(),
    }),
    response: z.object({ deliveries: z.array(webhookDeliverySchema), has_more: z.boolean() }),
    operation: documents.webhookDeliveries,
    variables: ({ params, query }) => ({
      id: params.id,
      first: query.limit ?? 20,
      after: query.after,
    }),
    result: (data: {
      webhookDeliveries: { deliveries: WebhookDeliveryData[]; hasMore: boolean };
    }) => ({
      deliveries: data.webhookDeliveries.deliveries.map(webhookDeliveryOut),
      has_more: data.webhookDeliveries.hasMore,
    }),
  }),
  restRoute({
    method: 'POST',
    path: '/v1/webhooks/:id/deliveries/:delivery_id/retry',
    operationId: 'retryWebhookDelivery',
    scope: 'webhooks:manage',
    summary: 'Send a delivery again now, with its original `webhook-id`',
    status: 202,
    response: webhookDeliverySchema,
    operation: documents.retryWebhookDelivery,
    variables: ({ params }) => ({ id: params.id, deliveryId: params.delivery_id }),
    result: (data: { retryWebhookDelivery: WebhookDeliveryData }) =>
      webhookDeliveryOut(data.retryWebhookDelivery),
  }),
];
