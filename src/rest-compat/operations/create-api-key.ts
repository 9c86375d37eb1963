/** `createApiKey`: a key with at most the caller's scopes; its secret is in this answer only. */
import { z } from 'zod';
import { scopes } from '../../auth/principal.ts';
import { graphql } from '../generated/index.ts';
import { operation } from '../operation.ts';
import { apiKeySchema, apiKeyToWire, scopeIn } from './fragments.ts';

export const createApiKey = operation({
  document: graphql(`
    mutation CreateApiKey($name: String, $scopes: [Scope!]) {
      createApiKey(name: $name, scopes: $scopes) { secret apiKey { ...ApiKeyFields } }
    }
  `),
  input: z.strictObject({
    name: z.string().max(100).optional(),
    scopes: z
      .array(z.enum(scopes))
      .max(scopes.length * 2)
      .optional(),
  }),
  output: apiKeySchema.extend({ key: z.string() }),
  variables: (input) => ({ name: input.name, scopes: input.scopes?.map(scopeIn) }),
  toWire: (data) => ({
    ...apiKeyToWire(data.createApiKey.apiKey),
    key: data.createApiKey.secret,
  }),
});
