/** `session`: one session of the caller's account. */
import { graphql } from '../generated/index.ts';
import { noInput, operation } from '../operation.ts';
import { sessionSchema, sessionToWire } from './fragments.ts';

export const getSession = operation({
  document: graphql(`
    query GetSession($id: ID!) {
      session(id: $id) { ...SessionFields }
    }
  `),
  input: noInput,
  output: sessionSchema,
  variables: (_input, { id }) => ({ id }),
  toWire: (data) => sessionToWire(data.session),
});
