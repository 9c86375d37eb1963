/** `rerouteChallenge`: moves an sms_otp session onto a new number (billable). */
import { z } from 'zod';
import { graphql } from '../generated/index.ts';
import { noInput, operation } from '../operation.ts';
import { sessionSchema, sessionToWire } from './fragments.ts';

export const rerouteChallenge = operation({
  document: graphql(`
    mutation RerouteChallenge($id: ID!) {
      rerouteChallenge(sessionId: $id) { previousNumber session { ...SessionFields } }
    }
  `),
  input: noInput,
  output: sessionSchema.extend({ previous_number: z.string() }),
  variables: (_input, { id }) => ({ id }),
  toWire: (data) => ({
    ...sessionToWire(data.rerouteChallenge.session),
    previous_number: data.rerouteChallenge.previousNumber,
  }),
});
