/** `webhookEndpoints`: the account's webhook endpoints (secrets are never shown again). */
import { z } from 'zod';
import { graphql } from '../generated/index.ts';
import { noInput, operation } from '../operation.ts';
import { webhookEndpointSchema, webhookEndpointToWire } from './fragments.ts';

export const listWebhookEndpoints = operation({
  document: graphql(`
    query ListWebhookEndpoints { webhookEndpoints { ...WebhookEndpointFields } }
  `),
  input: noInput,
  output: z.object({ webhooks: z.array(webhookEndpointSchema) }),
  variables: () => ({}),
  toWire: (data) => ({ webhooks: data.webhookEndpoints.map(webhookEndpointToWire) }),
});
