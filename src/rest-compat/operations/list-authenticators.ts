/** `authenticators`: the account's TOTP enrolments, oldest first; secrets are never shown. */
import { z } from 'zod';
import { graphql } from '../generated/index.ts';
import { nodes, operation, paging } from '../operation.ts';
import { authenticatorSchema, authenticatorToWire } from './fragments.ts';

export const listAuthenticators = operation({
  document: graphql(`
    query ListAuthenticators($first: Int, $after: String) {
      authenticators(first: $first, after: $after) {
        edges { node { ...AuthenticatorFields } }
        pageInfo { hasNextPage }
      }
    }
  `),
  input: paging,
  output: z.object({ authenticators: z.array(authenticatorSchema), has_more: z.boolean() }),
  variables: (input) => ({ first: input.limit ?? 20, after: input.after }),
  toWire: (data) => ({
    authenticators: nodes(data.authenticators).map(authenticatorToWire),
    has_more: data.authenticators.pageInfo.hasNextPage,
  }),
});
