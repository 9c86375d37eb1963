/** `closeChallenge`: ends a session and releases its number or inbox (`release_number`). */
import { z } from 'zod';
import { graphql } from '../generated/index.ts';
import { noInput, operation } from '../operation.ts';
import { sessionSchema, sessionToWire } from './fragments.ts';

export const closeChallenge = operation({
  document: graphql(`
    mutation CloseChallenge($id: ID!) {
      closeChallenge(sessionId: $id) { status session { ...SessionFields } }
    }
  `),
  input: noInput,
  output: z.object({ status: z.literal('completed'), session: sessionSchema }),
  variables: (_input, { id }) => ({ id }),
  toWire: (data) => ({
    status: z.literal('completed').parse(data.closeChallenge.status),
    session: sessionToWire(data.closeChallenge.session),
  }),
});
