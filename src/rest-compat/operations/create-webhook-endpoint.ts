/** `createWebhookEndpoint`: adds an endpoint; its signing secret is in this answer only. */
import { z } from 'zod';
import { graphql } from '../generated/index.ts';
import { operation } from '../operation.ts';
import {
  eventTypeIn,
  webhookEndpointSchema,
  webhookEndpointToWire,
  webhookEventTypeSchema,
} from './fragments.ts';

/** An endpoint with its `whsec_…` secret: the answer to a creation or a rotation. */
export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({
  secret: z.string().describe('The `whsec_…` signing secret; shown in this answer only'),
});

export const createWebhookEndpoint = operation({
  document: graphql(`
    mutation CreateWebhookEndpoint($url: String!, $events: [WebhookEventType!]) {
      createWebhookEndpoint(url: $url, events: $events) {
        secret endpoint { ...WebhookEndpointFields }
      }
    }
  `),
  input: z.strictObject({
    url: z.string().max(4096),
    events: z.array(webhookEventTypeSchema).min(1).max(12).nullish(),
  }),
  output: webhookEndpointWithSecretSchema,
  variables: (input) => ({ url: input.url, events: input.events?.map(eventTypeIn) }),
  toWire: (data) => ({
    ...webhookEndpointToWire(data.createWebhookEndpoint.endpoint),
    secret: data.createWebhookEndpoint.secret,
  }),
});
