/** `webhookDeliveries`: an endpoint's deliveries, newest first. */
import { z } from 'zod';
import { graphql } from '../generated/index.ts';
import { operation, paging } from '../operation.ts';
import { webhookDeliverySchema, webhookDeliveryToWire } from './fragments.ts';

export const listWebhookDeliveries = operation({
  document: graphql(`
    query ListWebhookDeliveries($id: ID!, $first: Int, $after: String) {
      webhookDeliveries(endpointId: $id, first: $first, after: $after) {
        deliveries { ...WebhookDeliveryFields }
        hasMore
      }
    }
  `),
  input: paging,
  output: z.object({ deliveries: z.array(webhookDeliverySchema), has_more: z.boolean() }),
  variables: (input, { id }) => ({ id, first: input.limit ?? 20, after: input.after }),
  toWire: (data) => ({
    deliveries: data.webhookDeliveries.deliveries.map(webhookDeliveryToWire),
    has_more: data.webhookDeliveries.hasMore,
  }),
});
