/** `retryWebhookDelivery`: sends a delivery again now, with its original `webhook-id`. */
import { graphql } from '../generated/index.ts';
import { noInput, operation } from '../operation.ts';
import { webhookDeliverySchema, webhookDeliveryToWire } from './fragments.ts';

export const retryWebhookDelivery = operation({
  document: graphql(`
    mutation RetryWebhookDelivery($id: ID!, $deliveryId: ID!) {
      retryWebhookDelivery(endpointId: $id, deliveryId: $deliveryId) { ...WebhookDeliveryFields }
    }
  `),
  input: noInput,
  output: webhookDeliverySchema,
  variables: (_input, { id, delivery_id }) => ({ id, deliveryId: delivery_id }),
  toWire: (data) => webhookDeliveryToWire(data.retryWebhookDelivery),
});
