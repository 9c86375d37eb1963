/**
 * /v1/webhooks: customer webhook endpoints and their deliveries, as mappings onto the schema's
 * webhook operations (scope `webhooks:manage`, enforced by the schema). The wire shapes are the
 * ones decisions.md names ("Webhooks to customers").
 */
import { createWebhookEndpoint } from './operations/create-webhook-endpoint.ts';
import { deleteWebhookEndpoint } from './operations/delete-webhook-endpoint.ts';
import { listWebhookDeliveries } from './operations/list-webhook-deliveries.ts';
import { listWebhookEndpoints } from './operations/list-webhook-endpoints.ts';
import { retryWebhookDelivery } from './operations/retry-webhook-delivery.ts';
import { rotateWebhookSecret } from './operations/rotate-webhook-secret.ts';
import { sendWebhookTestEvent } from './operations/send-webhook-test-event.ts';
import { type RestRoute, restRoute } from './rest-route.ts';

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
    operation: createWebhookEndpoint,
  }),
  restRoute({
    method: 'GET',
    path: '/v1/webhooks',
    operationId: 'listWebhookEndpoints',
    scope: 'webhooks:manage',
    summary: 'List webhook endpoints (secrets are never shown again)',
    operation: listWebhookEndpoints,
  }),
  restRoute({
    method: 'DELETE',
    path: '/v1/webhooks/:id',
    operationId: 'deleteWebhookEndpoint',
    scope: 'webhooks:manage',
    summary: 'Delete a webhook endpoint; nothing more is sent to it',
    status: 204,
    operation: deleteWebhookEndpoint,
  }),
  restRoute({
    method: 'POST',
    path: '/v1/webhooks/:id/rotate-secret',
    operationId: 'rotateWebhookSecret',
    scope: 'webhooks:manage',
    summary: 'New signing secret; the old one keeps signing for 24 h beside it',
    operation: rotateWebhookSecret,
  }),
  restRoute({
    method: 'POST',
    path: '/v1/webhooks/:id/test',
    operationId: 'sendWebhookTestEvent',
    scope: 'webhooks:manage',
    summary: 'Send a `webhook.test` event to the endpoint now',
    status: 202,
    operation: sendWebhookTestEvent,
  }),
  restRoute({
    method: 'GET',
    path: '/v1/webhooks/:id/deliveries',
    operationId: 'listWebhookDeliveries',
    scope: 'webhooks:manage',
    summary: "An endpoint's deliveries, newest first",
    description: 'When `has_more` is true, call again with the last `id` as `after`.',
    operation: listWebhookDeliveries,
  }),
  restRoute({
    method: 'POST',
    path: '/v1/webhooks/:id/deliveries/:delivery_id/retry',
    operationId: 'retryWebhookDelivery',
    scope: 'webhooks:manage',
    summary: 'Send a delivery again now, with its original `webhook-id`',
    status: 202,
    operation: retryWebhookDelivery,
  }),
];
