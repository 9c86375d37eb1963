/** `openChallenge`: a number, an inbox or an authenticator for one challenge (billable). */
import { z } from 'zod';
import { graphql } from '../generated/index.ts';
import { operation } from '../operation.ts';
import { sessionSchema, sessionToWire } from './fragments.ts';

export const openChallenge = operation({
  document: graphql(`
    mutation OpenChallenge($input: OpenChallengeInput) {
      openChallenge(input: $input) { ...SessionFields }
    }
  `),
  input: z.strictObject({
    channel: sessionSchema.shape.channel.optional(),
    target: z.string().max(2048).optional(),
    number_type: z.enum(['synthetic', 'programmable']).optional(),
    authenticator_id: z.string().max(255).optional().describe('totp only'),
    require_authenticated_sender: z
      .boolean()
      .optional()
      .describe(
        'email_otp and magic_link: only a message whose sender is authenticated (DMARC pass) and, with a target, from its registrable domain yields the verdict; others are listed with `rejected: "sender_not_authenticated"` and the wait goes on',
      ),
  }),
  output: sessionSchema,
  variables: (input) => ({
    input: {
      channel: input.channel,
      target: input.target,
      numberType: input.number_type,
      authenticatorId: input.authenticator_id,
      requireAuthenticatedSender: input.require_authenticated_sender,
    },
  }),
  toWire: (data) => sessionToWire(data.openChallenge),
});
