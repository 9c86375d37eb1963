/**
 * `POST /agent/identity`: an agent registers on behalf of a person (JSON, dispatched on `type`),
 * and `GET /agent/identity/claim`, the registration's `claim_url`, which sends a browser on to the
 * console's claim page (the claim itself happens there, never through the agent).
 *
 * Errors are OAuth-style `{error, error_description}` with status 400: `invalid_request` (malformed
 * body, missing or bad `login_hint`, unknown scope, unknown type), `anonymous_not_enabled`,
 * `service_auth_not_enabled` (when SERVICE_AUTH_ENABLED=false) and, following the same pattern for
 * the planned type, `identity_assertion_not_enabled`; `429 rate_limited` with Retry-After past the
 * registration limits. The response holds secrets: `no-store`.
 */

import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { emailSchema } from '../domain/accounts/accounts.ts';
import { createRegistration, type RegistrationPolicy } from '../domain/agents/registrations.ts';
import { hit } from '../domain/throttle/counter.ts';
import {
  isDependencyUnavailable,
  OAuthError,
  type OAuthErrorCode,
  UNAVAILABLE_RETRY_AFTER,
} from '../errors/index.ts';
import { oauthClientError, sendOAuthError } from '../http/oauth-error.ts';
import { isoSeconds } from './identity-assertion.ts';
import { paths } from './metadata.ts';
import { defaultAgentScopes, scopes } from './principal.ts';

const bodyLimit = 8 * 1024;

/**
 * Registration is unauthenticated, so it is throttled in the database (exact across instances):
 * per client address, and per login_hint so nobody can flood one person with claim requests.
 */
export const registrationLimits = {
  perAddress: { max: 30, windowSeconds: 600 },
  perEmail: { max: 10, windowSeconds: 3600 },
};

const notEnabled: Record<string, OAuthErrorCode> = {
  anonymous: 'anonymous_not_enabled',
  identity_assertion: 'identity_assertion_not_enabled',
};

const serviceAuthBody = z.object({
  type: z.literal('service_auth'),
  login_hint: z.string({ message: 'login_hint is required: the email of the person to claim' }),
  scope: z.string().max(500).optional(),
  /** A label the person sees on the console's agents page (decisions.md: the SDK sends it). */
  name: z
    .string()
    .trim()
    .min(1, 'name must not be empty')
    .max(100, 'name must be at most 100 characters')
    .optional(),
});

function parseScope(requested: string | undefined): string[] {
  const granted = new Set<string>(defaultAgentScopes);
  for (const scope of (requested ?? '').split(' ').filter(Boolean)) {
    if (!(scopes as readonly string[]).includes(scope)) {
      throw new OAuthError('invalid_request', `unknown scope: ${scope.slice(0, 50)}`);
    }
    granted.add(scope);
  }
  return scopes.filter((scope) => granted.has(scope));
}

export function registrationRoutes(
  config: Config,
  policy: () => RegistrationPolicy,
  /** The runtime's clock: the code window and the claim token's lifetime start from it. */
  clock: () => Date,
) {
  return async function registration(app: FastifyInstance) {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      /^application\/([a-z0-9.-]+\+)?json\b/i,
      { parseAs: 'string', bodyLimit },
      (_request, body, done) => {
        try {
          done(null, JSON.parse(body as string));
        } catch {
          done(new OAuthError('invalid_request', 'the body is not valid JSON'), undefined);
        }
      },
    );
    app.setErrorHandler((error, request, reply) => {
      const refused = oauthClientError(error, {
        malformed: 'the body must be a JSON object (application/json)',
        tooLarge: 'the body is too large',
      });
      if (refused) return sendOAuthError(reply, refused);
      // The database is unreachable: an outage to wait out, not a server bug (issue 11 §6).
      if (isDependencyUnavailable(error)) {
        request.log.warn({ cause: String(error) }, 'registration: dependency down');
        return sendOAuthError(
          reply,
          new OAuthError('temporarily_unavailable', 'the service is temporarily unavailable', {
            retryAfter: UNAVAILABLE_RETRY_AFTER,
          }),
        );
      }
      request.log.error({ err: error }, 'registration failed');
      return sendOAuthError(reply, new OAuthError('server_error', 'an unexpected error occurred'));
    });

    app.post(paths.identity, async (request, reply) => {
      const body = request.body;
      if (!body || typeof body !== 'object' || Array.isArray(body)) {
        throw new OAuthError('invalid_request', 'the body must be a JSON object');
      }
      const type = (body as { type?: unknown }).type;
      if (typeof type !== 'string' || type === '') {
        throw new OAuthError('invalid_request', 'type is required (service_auth)');
      }
      if (notEnabled[type]) {
        throw new OAuthError(notEnabled[type]!, `registration type ${type} is not available`);
      }
      if (type !== 'service_auth') {
        throw new OAuthError('invalid_request', 'unknown registration type');
      }
      if (!config.serviceAuthEnabled) {
        throw new OAuthError(
          'service_auth_not_enabled',
          'registration type service_auth is not available',
        );
      }
      const parsed = serviceAuthBody.safeParse(body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = issue.path.join('.') || 'body';
        throw new OAuthError('invalid_request', `${field}: ${issue.message}`);
      }
      const email = emailSchema.safeParse(parsed.data.login_hint);
      if (!email.success) {
        throw new OAuthError('invalid_request', 'login_hint must be an email address');
      }
      const granted = parseScope(parsed.data.scope);
      const emailKey = createHash('sha256').update(email.data).digest('hex');
      for (const [key, limit] of [
        [`register:ip:${request.ip}`, registrationLimits.perAddress],
        [`register:email:${emailKey}`, registrationLimits.perEmail],
      ] as const) {
        const state = await hit(request.em, key, limit.windowSeconds);
        if (state.count > limit.max) {
          throw new OAuthError('rate_limited', 'too many registrations; retry later', {
            retryAfter: Math.max(1, Math.ceil((state.windowEndsAt.getTime() - Date.now()) / 1000)),
          });
        }
      }
      const settings = policy();
      const created = await createRegistration(
        { em: request.em, clock },
        { email: email.data, scope: granted.join(' '), name: parsed.data.name ?? null },
        settings,
      );
      const { registration } = created;
      request.log.info({ registrationId: registration.id }, 'agent registered');
      return reply
        .status(201)
        .header('cache-control', 'no-store')
        .header('pragma', 'no-cache')
        .send({
          registration_id: registration.id,
          registration_type: 'service_auth',
          claim_url: paths.claim,
          claim_token: created.claimToken,
          claim_token_expires: isoSeconds(registration.claimTokenExpiresAt),
          post_claim_scopes: granted,
          claim: {
            user_code: created.userCode,
            expires_in: settings.userCodeTtl,
            verification_uri: `${config.consoleUrl}/claim?claim_attempt_token=${created.claimAttemptToken}`,
            interval: settings.pollInterval,
          },
        });
    });

    // The claim_url: a person's browser that lands here is sent to the console's claim page.
    app.get(paths.claim, async (request, reply) => {
      const token = (request.query as { claim_attempt_token?: unknown }).claim_attempt_token;
      const query =
        typeof token === 'string' ? `?claim_attempt_token=${encodeURIComponent(token)}` : '';
      return reply.redirect(`${config.consoleUrl}/claim${query}`, 303);
    });
  };
}
