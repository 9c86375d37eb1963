/**
 * The synthetic SMS endpoint: `POST /v1/synthetic/sms` (scope `sessions:write`; an API key
 * carries its scopes too), JSON `{to, from, body}`. It delivers a message to a synthetic number
 * held by an active session of the caller's own account, through the same path a carrier's
 * message takes — this is how a customer's app under test "sends" to a synthetic number.
 *
 * A number not held by one of the caller's sessions is `404` and nothing is stored: a customer
 * must not be able to write into another tenant's session. Answers `201` after the commit.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireScope } from '../../auth/credentials.ts';
import { type ChallengeDeps, withEm } from '../../domain/context.ts';
import { receiveMessage } from '../../domain/messages/receive.ts';
import { isUsE164 } from '../../domain/numbers/pool-spec.ts';
import { validate } from '../../errors/index.ts';
import { extractFromSms } from '../../extract/index.ts';

export const SYNTHETIC_SMS_PATH = '/v1/synthetic/sms';

/** PostgreSQL text cannot hold U+0000: a NUL is the caller's mistake, not a server error. */
const noNul = (value: string) => !value.includes('\u0000');

const syntheticSms = z.strictObject({
  to: z.string().refine(isUsE164, 'must be a US number in E.164, like +12025550142'),
  /** A phone number, short code or alphanumeric sender id, as a carrier would show it. */
  from: z.string().trim().min(1).max(32).refine(noNul, 'may not contain NUL characters'),
  body: z.string().min(1).max(1600).refine(noNul, 'may not contain NUL characters'),
});

export function syntheticSmsRoutes(deps: ChallengeDeps) {
  return async function registerSyntheticSms(server: FastifyInstance) {
    server.post(
      SYNTHETIC_SMS_PATH,
      { preHandler: requireScope('sessions:write') },
      async (request, reply) => {
        const sms = validate(syntheticSms, request.body);
        const result = await receiveMessage(withEm(deps, request.em), {
          medium: 'sms',
          carrier: 'synthetic',
          to: sms.to,
          from: sms.from,
          raw: Buffer.from(sms.body, 'utf8'),
          extraction: extractFromSms({ from: sms.from, text: sms.body }),
          onlyForAccount: request.principal!.accountId,
        });
        return reply
          .status(201)
          .send({ message_id: result.messageId, session_id: result.sessionId });
      },
    );
  };
}
