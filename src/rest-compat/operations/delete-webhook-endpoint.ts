/** `deleteWebhookEndpoint`: nothing more is sent to it; 204 on /v1. */
import { z } from 'zod';
import { graphql } from '../generated/index.ts';
import { noInput, operation } from '../operation.ts';

export const deleteWebhookEndpoint = operation({
  document: graphql(`
    mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }
  `),
  input: noInput,
  output: z.null(),
  variables: (_input, { id }) => ({ id }),
  toWire: () => null,
});
