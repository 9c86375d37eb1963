/**
 * The console's authenticator management (`{console_url}/authenticators`): list, add, delete, for
 * the signed-in person's own account only (another account's id is `not_found`), through the same
 * domain operations as /v1 and GraphQL. Forms are CSRF-protected. Adding needs a verified email
 * (`email_unverified` otherwise): a stored enrolment is a credential, like an API key.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  isEmailVerified,
  requireVerifiedAccount,
  unverified,
} from '../domain/accounts/verification.ts';
import {
  createAuthenticator,
  deleteAuthenticator,
  listAuthenticators,
} from '../domain/authenticators/authenticators.ts';
import { withEm } from '../domain/context.ts';
import type { User } from '../entities/user.ts';
import { isAppError } from '../errors/index.ts';
import { authenticatorsPage } from './authenticators-page.ts';

/** One page of up to 100: enough for a person's list; more are reached over /v1. */
const PAGE = 100;

export function authenticatorConsoleRoutes(prefix: string) {
  return async function authenticators(app: FastifyInstance) {
    const signIn = (reply: FastifyReply) =>
      reply.redirect(
        `${prefix}/login?return_to=${encodeURIComponent(`${prefix}/authenticators`)}`,
        303,
      );
    const ctx = (request: FastifyRequest) => withEm(request.server.challenges, request.em);

    const show = async (
      request: FastifyRequest,
      reply: FastifyReply,
      user: User,
      status: number,
      extra: { added?: string; target?: string; error?: string } = {},
    ) => {
      const { authenticators: list } = await listAuthenticators(
        ctx(request),
        { accountId: user.account.id },
        { limit: PAGE },
      );
      return reply
        .status(status)
        .type('text/html; charset=utf-8')
        .send(
          authenticatorsPage({
            chrome: { prefix, signedInAs: { email: user.email, csrf: reply.generateCsrf() } },
            csrf: reply.generateCsrf(),
            authenticators: list,
            ...extra,
          }),
        );
    };

    app.get('/authenticators', async (request, reply) => {
      if (!request.user) return signIn(reply);
      const pending = isEmailVerified(request.user) ? {} : { error: unverified().message };
      return show(request, reply, request.user, 200, pending);
    });

    app.post('/authenticators', { preHandler: app.csrfProtection }, async (request, reply) => {
      const user = request.user;
      if (!user) return signIn(reply);
      const body = (request.body ?? {}) as { otpauth_uri?: unknown; target?: unknown };
      const target = typeof body.target === 'string' ? body.target : '';
      try {
        await requireVerifiedAccount(request.em, user);
        const created = await createAuthenticator(
          ctx(request),
          { accountId: user.account.id },
          {
            target,
            otpauthUri: typeof body.otpauth_uri === 'string' ? body.otpauth_uri : '',
          },
        );
        request.log.info({ authenticatorId: created.id }, 'authenticator added in the console');
        return show(request, reply, user, 201, { added: created.target });
      } catch (error) {
        if (isAppError(error) && error.status < 500) {
          return show(request, reply, user, error.status, {
            error: `${error.message} (${error.code})`,
            target,
          });
        }
        throw error;
      }
    });

    app.post<{ Params: { id: string } }>(
      '/authenticators/:id/delete',
      { preHandler: app.csrfProtection },
      async (request, reply) => {
        const user = request.user;
        if (!user) return signIn(reply);
        await deleteAuthenticator(ctx(request), { accountId: user.account.id }, request.params.id);
        return reply.redirect(`${prefix}/authenticators`, 303);
      },
    );
  };
}
