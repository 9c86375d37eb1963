/** `sendWebhookTestEvent`: a `webhook.test` event to the endpoint now. */
import { graphql } from '../generated/index.ts';
import { noInput, operation } from '../operation.ts';
import { webhookDeliverySchema, webhookDeliveryToWire } from './fragments.ts';

export const sendWebhookTestEvent = operation({
  document: graphql(`
    mutation SendWebhookTestEvent($id: ID!) {
      sendWebhookTestEvent(id: $id) { ...WebhookDeliveryFields }
    }
  `),
  input: noInput,
  output: webhookDeliverySchema,
  variables: (_input, { id }) => ({ id }),
  toWire: (data) => webhookDeliveryToWire(data.sendWebhookTestEvent),
});
