/** `deleteApiKey`: the key stops working at once; /v1 answers 204 without a body. */
import { z } from 'zod';
import { graphql } from '../generated/index.ts';
import { noInput, operation } from '../operation.ts';

export const deleteApiKey = operation({
  document: graphql(`
    mutation DeleteApiKey($id: ID!) { deleteApiKey(id: $id) }
  `),
  input: noInput,
  output: z.null(),
  variables: (_input, { id }) => ({ id }),
  toWire: () => null,
});
