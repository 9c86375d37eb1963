/**
 * The console's part of the MCP authorization flow (src/auth/mcp-hosts.ts): oidc-provider sends
 * the browser to `{console_url}/authorize/:uid`; the person signs in with the console session if
 * needed, sees who asks for what, and approves or denies with a CSRF-protected form. The answer
 * is stored with `provider.interactionResult` and the browser sent back to the provider, which,
 * not this file, issues the code (or `access_denied`) to the client.
 *
 * The interaction is bound to the browser that started it (oidc-provider's signed `_interaction`
 * cookie), so another person's console session, in another browser, can neither see nor approve
 * it (`authorization_invalid`). Approving needs a verified account (`requireVerifiedAccount`).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors, type default as Provider } from 'oidc-provider';
import { approveMcpHost } from '../auth/mcp-hosts.ts';
import { type Scope, scopes } from '../auth/principal.ts';
import type { Config } from '../config.ts';
import { requireVerifiedAccount } from '../domain/accounts/verification.ts';
import { AppError } from '../errors/index.ts';
import { authorizePage } from './authorize-page.ts';

type Params = { Params: { uid: string } };

const invalid = () =>
  new AppError(
    'authorization_invalid',
    'This authorization request has expired, was already answered, or was started in another browser. Start the connection again from your application.',
  );

/** The requested scopes this service knows (the provider already refused unknown ones). */
const requestedScopes = (scope: unknown): Scope[] =>
  typeof scope === 'string'
    ? scope.split(' ').filter((s): s is Scope => (scopes as readonly string[]).includes(s))
    : [];

/** The page's own form-action also allows the client's redirect origin: the answer goes there. */
function allowRedirectOrigin(reply: FastifyReply, redirectUri: string) {
  // helmet writes its headers straight onto the raw response.
  const policy = reply.raw.getHeader('content-security-policy');
  const origin = URL.parse(redirectUri)?.origin;
  if (typeof policy !== 'string' || !origin || origin === 'null') return;
  reply.header(
    'content-security-policy',
    policy.replace(/form-action ([^;]*)/, (_all, sources) => `form-action ${sources} ${origin}`),
  );
}

export function authorizeRoutes(config: Config) {
  const prefix = config.consolePath;
  const resource = config.publicBaseUrl;

  return async function authorize(app: FastifyInstance) {
    const interaction = async (request: FastifyRequest<Params>, reply: FastifyReply) => {
      try {
        const found = await request.server.agentAuth.provider.interactionDetails(
          request.raw,
          reply.raw,
        );
        if (found.uid !== request.params.uid) throw invalid();
        return found;
      } catch (error) {
        if (error instanceof errors.SessionNotFound) throw invalid();
        throw error;
      }
    };
    /** Stores the answer on the interaction and sends the browser back to the provider. */
    const finish = async (
      request: FastifyRequest,
      reply: FastifyReply,
      result: Parameters<Provider['interactionResult']>[2],
    ) => {
      const resume = await request.server.agentAuth.provider.interactionResult(
        request.raw,
        reply.raw,
        result,
        { mergeWithLastSubmission: false },
      );
      return reply.redirect(resume, 303);
    };
    const signIn = (reply: FastifyReply, uid: string) =>
      reply.redirect(
        `${prefix}/login?return_to=${encodeURIComponent(`${prefix}/authorize/${uid}`)}`,
        303,
      );

    app.get<Params>('/authorize/:uid', async (request, reply) => {
      const details = await interaction(request, reply);
      const user = request.user;
      if (!user) return signIn(reply, request.params.uid);
      await requireVerifiedAccount(request.em, user);
      const client = await request.server.agentAuth.provider.Client.find(
        String(details.params.client_id),
      );
      const redirectUri = String(details.params.redirect_uri ?? '');
      allowRedirectOrigin(reply, redirectUri);
      return reply
        .status(200)
        .type('text/html; charset=utf-8')
        .send(
          authorizePage({
            chrome: { prefix, signedInAs: { email: user.email, csrf: reply.generateCsrf() } },
            csrf: reply.generateCsrf(),
            uid: details.uid,
            clientName: client?.clientName ?? String(details.params.client_id),
            redirectHost: URL.parse(redirectUri)?.host ?? '',
            scope: requestedScopes(details.params.scope).join(' '),
            accountName: user.account.name,
          }),
        );
    });

    app.post<Params>(
      '/authorize/:uid/approve',
      { preHandler: app.csrfProtection },
      async (request, reply) => {
        const details = await interaction(request, reply);
        const user = request.user;
        if (!user) return signIn(reply, request.params.uid);
        await requireVerifiedAccount(request.em, user);
        const { provider } = request.server.agentAuth;
        const clientId = String(details.params.client_id);
        const granted = requestedScopes(details.params.scope);
        const registration = await approveMcpHost(request.em, user, granted, new Date());
        const grant = new provider.Grant({ accountId: registration.id, clientId });
        // The service's scopes are the provider's `scopes` and the resource's: grant both.
        const openid = String(details.params.scope ?? '')
          .split(' ')
          .includes('openid');
        grant.addOIDCScope([...(openid ? ['openid'] : []), ...granted].join(' '));
        grant.addResourceScope(resource, granted.join(' '));
        const grantId = await grant.save();
        request.log.info(
          { registrationId: registration.id, clientId, scope: granted.join(' ') },
          'MCP host approved in the console',
        );
        return finish(request, reply, {
          login: { accountId: registration.id },
          consent: { grantId },
        });
      },
    );

    app.post<Params>(
      '/authorize/:uid/deny',
      { preHandler: app.csrfProtection },
      async (request, reply) => {
        await interaction(request, reply);
        if (!request.user) return signIn(reply, request.params.uid);
        return finish(request, reply, {
          error: 'access_denied',
          error_description: 'the person denied the request',
        });
      },
    );
  };
}
