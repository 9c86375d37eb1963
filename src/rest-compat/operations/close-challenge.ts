/** `closeChallenge`: ends a session and releases its number or inbox (`release_number`). */
import { z } from 'zod';
import { graphql } from '../generated/index.ts';
import { noInput, operation } from '../operation.ts';
import { sessionSchema, sessionToWire } from './fragments.ts';

/** Built once: a zod schema made per request was ~2% of a close's busy CPU (issue 16). */
const completed = z.literal('completed');

export const closeChallenge = operation({
  document: graphql(`
    mutation CloseChallenge($id: ID!) {
      closeChallenge(sessionId: $id) { status session { ...SessionFields } }
    }
  `),
  input: noInput,
  output: z.object({ status: completed, session: sessionSchema }),
  variables: (_input, { id }) => ({ id }),
  toWire: (data) => ({
    status: completed.parse(data.closeChallenge.status),
    session: sessionToWire(data.closeChallenge.session),
  }),
});
