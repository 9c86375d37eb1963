/**
 * The JWT bearer grant (RFC 7523 §2.1) with the identity assertion, and an optional `resource`
 * (RFC 8707) and `scope`: a fresh access token, no new assertion (the agent keeps refreshing with
 * the one it has until it expires).
 *
 * Refusals: a missing assertion is `invalid_request`; an expired, foreign-signed, unsigned,
 * malformed or revoked assertion is `invalid_grant` (RFC 7523 §3.1); a resource other than this
 * API is `invalid_target`; a scope beyond the assertion's is `invalid_scope`. The registration's
 * liveness is checked by the token INSERT itself (one round trip, adapter.ts); a token issued
 * while a revocation commits is never honoured, because lookups check the registration too.
 */
import { errors, type TokenEndpointGrantContext } from 'oidc-provider';
import { AssertionError, type IdentityAssertions } from '../identity-assertion.ts';
import { issueAccessToken } from './issue-access-token.ts';

export const grantType = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const parameters: readonly string[] = Object.freeze(['assertion', 'resource', 'scope']);

export interface JwtBearerGrantDeps {
  assertions: IdentityAssertions;
  resource: string;
  accessTokenTtl: number;
}

/** The resource as an RFC 8707 identifier, compared after URL normalisation (`/` suffix). */
function sameResource(requested: string, resource: string) {
  const parsed = URL.parse(requested);
  return parsed !== null && !parsed.hash && parsed.href === new URL(resource).href;
}

export function buildHandler(deps: JwtBearerGrantDeps) {
  return async function jwtBearerGrant(ctx: TokenEndpointGrantContext) {
    const { assertion, resource, scope } = ctx.oidc.params;
    if (typeof assertion !== 'string' || assertion === '') {
      throw new errors.InvalidRequest("missing required parameter 'assertion'");
    }
    if (
      resource !== undefined &&
      (typeof resource !== 'string' || !sameResource(resource, deps.resource))
    ) {
      throw new errors.InvalidTarget();
    }
    let verified: Awaited<ReturnType<IdentityAssertions['verify']>>;
    try {
      verified = await deps.assertions.verify(assertion);
    } catch (error) {
      if (error instanceof AssertionError) {
        throw new errors.CustomOIDCProviderError('invalid_grant', error.message);
      }
      throw error;
    }
    const granted = new Set(verified.scope.split(' ').filter(Boolean));
    let effective = [...granted];
    if (typeof scope === 'string' && scope !== '') {
      const requested = scope.split(' ').filter(Boolean);
      const beyond = requested.filter((s) => !granted.has(s));
      if (beyond.length) {
        throw new errors.InvalidScope(
          'requested scope exceeds what the assertion grants',
          beyond.join(' '),
        );
      }
      effective = [...new Set(requested)];
    }
    const token = await issueAccessToken(ctx, {
      registrationId: verified.registrationId,
      accountId: verified.accountId,
      scope: effective.join(' '),
      grantType,
      resource: deps.resource,
      ttlSeconds: deps.accessTokenTtl,
    });
    ctx.body = {
      access_token: token.value,
      token_type: token.tokenType,
      expires_in: token.expiresIn,
      scope: token.scope,
    };
  };
}
