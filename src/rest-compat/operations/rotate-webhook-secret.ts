/** `rotateWebhookSecret`: a new signing secret; the old one keeps signing for 24 h beside it. */
import { graphql } from '../generated/index.ts';
import { noInput, operation } from '../operation.ts';
import { webhookEndpointWithSecretSchema } from './create-webhook-endpoint.ts';
import { webhookEndpointToWire } from './fragments.ts';

export const rotateWebhookSecret = operation({
  document: graphql(`
    mutation RotateWebhookSecret($id: ID!) {
      rotateWebhookSecret(id: $id) { secret endpoint { ...WebhookEndpointFields } }
    }
  `),
  input: noInput,
  output: webhookEndpointWithSecretSchema,
  variables: (_input, { id }) => ({ id }),
  toWire: (data) => ({
    ...webhookEndpointToWire(data.rotateWebhookSecret.endpoint),
    secret: data.rotateWebhookSecret.secret,
  }),
});
