/** `deleteAuthenticator`: deletes an authenticator and erases its secret; 204 on /v1. */
import { z } from 'zod';
import { graphql } from '../generated/index.ts';
import { noInput, operation } from '../operation.ts';

export const deleteAuthenticator = operation({
  document: graphql(`
    mutation DeleteAuthenticator($id: ID!) { deleteAuthenticator(id: $id) }
  `),
  input: noInput,
  output: z.null(),
  variables: (_input, { id }) => ({ id }),
  toWire: () => null,
});
