/** `apiKeys`: the account's API keys (secrets are never shown again). */
import { z } from 'zod';
import { graphql } from '../generated/index.ts';
import { noInput, operation } from '../operation.ts';
import { apiKeySchema, apiKeyToWire } from './fragments.ts';

export const listApiKeys = operation({
  document: graphql(`
    query ListApiKeys { apiKeys { ...ApiKeyFields } }
  `),
  input: noInput,
  output: z.object({ api_keys: z.array(apiKeySchema) }),
  variables: () => ({}),
  toWire: (data) => ({ api_keys: data.apiKeys.map(apiKeyToWire) }),
});
