/**
 * The console's claim ceremony (`{console_url}/claim`): an anonymous visitor is sent to sign in
 * (or sign up) and brought back; the signed-in person whose email is the registration's
 * claim_email types the user code; the registration joins that person's account.
 *
 * Refusals are shown, and nothing is claimed: another person's email (`claim_wrong_user`, their
 * attempts are not counted so they cannot lock someone else's claim), a used or expired claim,
 * a wrong code (counted; the 5th locks the claim, RFC 8628 §5.1), an account whose email is not
 * verified yet (`email_unverified`, not counted either). The form is CSRF-protected.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireVerifiedAccount } from '../domain/accounts/verification.ts';
import {
  claimRefusal,
  claimRegistration,
  findByClaimAttemptToken,
} from '../domain/agents/registrations.ts';
import { AppError, isAppError } from '../errors/index.ts';
import { claimedPage, claimPage } from './claim-page.ts';
import { formFields } from './forms.ts';
import { sendPage } from './html.ts';
import { chromeFor } from './layout.ts';
import { errorPage } from './pages.ts';

export function claimRoutes(prefix: string) {
  return async function claim(app: FastifyInstance) {
    const chrome = (request: FastifyRequest, reply: FastifyReply) =>
      chromeFor(prefix, request, reply);

    const refusal = (request: FastifyRequest, reply: FastifyReply, error: AppError) =>
      sendPage(
        reply,
        error.status,
        errorPage(chrome(request, reply), 'Cannot connect this agent', error.message, error.code),
      );

    const toSignIn = (reply: FastifyReply, token: string) =>
      reply.redirect(
        `${prefix}/login?return_to=${encodeURIComponent(`${prefix}/claim?claim_attempt_token=${encodeURIComponent(token)}`)}`,
        303,
      );

    app.get('/claim', async (request, reply) => {
      const token = formFields(request.query).claim_attempt_token ?? '';
      if (!request.user) return toSignIn(reply, token);
      const registration = await findByClaimAttemptToken(request.em, token);
      if (!registration) {
        return refusal(request, reply, new AppError('not_found', 'This claim link is not valid.'));
      }
      const refused = claimRefusal(registration, request.user, request.server.agentAuth.clock());
      if (refused) return refusal(request, reply, refused);
      try {
        await requireVerifiedAccount(request.em, request.user);
      } catch (error) {
        if (isAppError(error)) return refusal(request, reply, error);
        throw error;
      }
      return sendPage(
        reply,
        200,
        claimPage({
          chrome: chrome(request, reply),
          csrf: reply.generateCsrf(),
          claimAttemptToken: token,
          registration,
          user: request.user,
        }),
      );
    });

    app.post('/claim', { preHandler: app.csrfProtection }, async (request, reply) => {
      const fields = formFields(request.body);
      const token = fields.claim_attempt_token ?? '';
      const user = request.user;
      if (!user) return toSignIn(reply, token);
      try {
        await requireVerifiedAccount(request.em, user);
        const registration = await claimRegistration(
          { em: request.em, clock: request.server.agentAuth.clock },
          { claimAttemptToken: token, code: fields.code ?? '', user },
          request.server.agentAuth.policy,
        );
        request.log.info({ registrationId: registration.id }, 'agent claimed');
        return sendPage(reply, 200, claimedPage(chrome(request, reply), registration));
      } catch (error) {
        if (!isAppError(error)) throw error;
        if (error.code === 'invalid_user_code') {
          const registration = await findByClaimAttemptToken(request.em, token);
          if (registration) {
            return sendPage(
              reply,
              400,
              claimPage({
                chrome: chrome(request, reply),
                csrf: reply.generateCsrf(),
                claimAttemptToken: token,
                registration,
                user,
                error: error.message,
              }),
            );
          }
        }
        return refusal(request, reply, error);
      }
    });
  };
}
