/**
 * The console's API key management (`{console_url}/api-keys`): list, create, delete, for the
 * signed-in person's own account only (a key id of another account is `not_found`). Forms are
 * CSRF-protected; the new secret appears only in the answer to its creation. Creating a key needs a
 * verified email (`email_unverified` otherwise).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Scope, scopes } from '../auth/principal.ts';
import { announceRevocation } from '../auth/revocation.ts';
import {
  isEmailVerified,
  requireVerifiedAccount,
  unverified,
} from '../domain/accounts/verification.ts';
import { createApiKey, deleteApiKey, listApiKeys } from '../domain/agents/api-keys.ts';
import type { User } from '../entities/user.ts';
import { AppError, isAppError } from '../errors/index.ts';
import { apiKeysPage } from './api-keys-page.ts';
import { sendPage } from './html.ts';
import type { PageChrome } from './layout.ts';

/** `scopes` may arrive once (a string) or repeated (an array); anything unknown is refused. */
function chosenScopes(body: unknown): Scope[] {
  const raw = (body as { scopes?: unknown } | undefined)?.scopes;
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const known = scopes as readonly unknown[];
  if (!list.every((scope) => known.includes(scope))) {
    throw new AppError('invalid_request', 'Choose scopes from the list');
  }
  return list as Scope[];
}

export function apiKeyConsoleRoutes(prefix: string) {
  return async function apiKeys(app: FastifyInstance) {
    const chrome = (user: User, reply: FastifyReply): PageChrome => ({
      prefix,
      signedInAs: { email: user.email, csrf: reply.generateCsrf() },
    });
    const signIn = (reply: FastifyReply) =>
      reply.redirect(`${prefix}/login?return_to=${encodeURIComponent(`${prefix}/api-keys`)}`, 303);

    const show = async (
      request: FastifyRequest,
      reply: FastifyReply,
      user: User,
      status: number,
      extra: { created?: { name: string; secret: string }; error?: string } = {},
    ) =>
      sendPage(
        reply,
        status,
        apiKeysPage({
          chrome: chrome(user, reply),
          csrf: reply.generateCsrf(),
          keys: await listApiKeys(request.em, user.account.id),
          ...extra,
        }),
      );

    app.get('/api-keys', async (request, reply) => {
      if (!request.user) return signIn(reply);
      // Say before the person fills the form that creating a key waits for a verified email.
      const pending = isEmailVerified(request.user) ? {} : { error: unverified().message };
      return show(request, reply, request.user, 200, pending);
    });

    app.post('/api-keys', { preHandler: app.csrfProtection }, async (request, reply) => {
      const user = request.user;
      if (!user) return signIn(reply);
      const name = (request.body as { name?: unknown } | undefined)?.name;
      try {
        await requireVerifiedAccount(request.em, user);
        const { key, secret } = await createApiKey(
          request.em,
          {
            accountId: user.account.id,
            name: typeof name === 'string' ? name : '',
            scopes: chosenScopes(request.body),
            createdBy: user.id,
          },
          new Set(scopes),
        );
        request.log.info({ keyId: key.id }, 'api key created in the console');
        return show(request, reply, user, 201, { created: { name: key.name, secret } });
      } catch (error) {
        if (isAppError(error) && (error.status === 400 || error.code === 'email_unverified')) {
          return show(request, reply, user, error.status, { error: error.message });
        }
        throw error;
      }
    });

    app.post<{ Params: { id: string } }>(
      '/api-keys/:id/delete',
      { preHandler: app.csrfProtection },
      async (request, reply) => {
        const user = request.user;
        if (!user) return signIn(reply);
        const deleted = await deleteApiKey(request.em, user.account.id, request.params.id);
        if (deleted.length === 0) throw new AppError('not_found', 'No such API key');
        // Deleted (with the keys it minted): end their open connections on every instance.
        await announceRevocation(request.server.challenges.events, deleted, request.log);
        return reply.redirect(`${prefix}/api-keys`, 303);
      },
    );
  };
}
