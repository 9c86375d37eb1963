/**
 * The claim grant, `urn:latchkey:agent-auth:grant-type:claim` with `claim_token`: the agent polls
 * (RFC 8628 style) until the person has claimed the registration, then receives, exactly once, an
 * access token and the identity assertion.
 *
 * Answers: `authorization_pending` until claimed; `slow_down` when polled faster than `interval`;
 * `expired_token` once the code window lapsed or after 5 wrong codes; `invalid_grant` for an
 * unknown, revoked or already used claim_token.
 *
 * Exactly once across instances: the token is stored first, then the claim token is spent with a
 * conditional UPDATE; the loser of a race destroys its token and answers `invalid_grant`.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import { errors, type TokenEndpointGrantContext } from 'oidc-provider';
import { markTokensIssued, pollClaim } from '../../domain/agents/registrations.ts';
import type { IdentityAssertions } from '../identity-assertion.ts';
import { isoSeconds } from '../identity-assertion.ts';
import { issueAccessToken } from './issue-access-token.ts';

export const grantType = 'urn:latchkey:agent-auth:grant-type:claim';
export const parameters: readonly string[] = Object.freeze(['claim_token']);

export interface ClaimGrantDeps {
  orm: MikroORM;
  assertions: IdentityAssertions;
  resource: string;
  accessTokenTtl: number;
  pollInterval: number;
  /** The runtime's clock: polls, intervals and code windows are judged by it. */
  clock: () => Date;
}

const invalidGrant = (description: string) =>
  new errors.CustomOIDCProviderError('invalid_grant', description);

export function buildHandler(deps: ClaimGrantDeps) {
  return async function claimGrant(ctx: TokenEndpointGrantContext) {
    const claimToken = ctx.oidc.params.claim_token;
    if (typeof claimToken !== 'string' || claimToken === '') {
      throw new errors.InvalidRequest("missing required parameter 'claim_token'");
    }
    const timed = { em: deps.orm.em.fork(), clock: deps.clock };
    const outcome = await pollClaim(timed, claimToken, { pollInterval: deps.pollInterval });
    switch (outcome.kind) {
      case 'unknown':
        throw invalidGrant('claim_token is not valid');
      case 'spent':
        throw invalidGrant('claim_token has already been used');
      case 'revoked':
        throw invalidGrant('the registration has been revoked');
      case 'expired':
        throw new errors.ExpiredToken(
          'the claim has expired or was locked; register again for a new code',
        );
      case 'slow_down':
        throw new errors.SlowDown();
      case 'pending':
        throw new errors.AuthorizationPending();
    }

    const token = await issueAccessToken(ctx, {
      registrationId: outcome.registrationId,
      accountId: outcome.accountId,
      scope: outcome.scope,
      grantType,
      resource: deps.resource,
      ttlSeconds: deps.accessTokenTtl,
    });
    const { assertion, expiresAt } = await deps.assertions.issue({
      registrationId: outcome.registrationId,
      accountId: outcome.accountId,
      scope: outcome.scope,
      clientId: ctx.oidc.client.clientId,
    });
    if (!(await markTokensIssued(timed, outcome.registrationId))) {
      await token.destroy();
      throw invalidGrant('claim_token has already been used');
    }
    ctx.body = {
      access_token: token.value,
      token_type: token.tokenType,
      expires_in: token.expiresIn,
      scope: token.scope,
      identity_assertion: assertion,
      assertion_expires: isoSeconds(expiresAt),
    };
  };
}
