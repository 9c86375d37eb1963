/**
 * Issues one opaque access token (`agt_…`) for a registration, as both grants need it.
 *
 * Custom grants get none of oidc-provider's private issuing helpers, so the model is built here:
 * `accountId` is the registration (the OAuth subject: the agent), `extra.account` the tenant,
 * `aud` the one resource this service is (RFC 8707 / RFC 9728 identifier = PUBLIC_BASE_URL).
 *
 * No `grantId`: oidc-provider's revocation endpoint revokes *every* token sharing the revoked
 * token's grantId (revoke-by-grant). Tokens without one are revoked alone, which is what RFC 7009
 * asks here; a registration's tokens are found by `accountId` instead (adapter.ts).
 */
import { errors, type TokenEndpointGrantContext } from 'oidc-provider';
import { RegistrationNotLiveError } from '../adapter.ts';

export interface IssueInput {
  registrationId: string;
  accountId: string;
  scope: string;
  grantType: string;
  resource: string;
  ttlSeconds: number;
}

export interface IssuedAccessToken {
  value: string;
  expiresIn: number;
  scope: string;
  tokenType: string;
  /** Removes the token again (the claim grant's lost race). */
  destroy(): Promise<void>;
}

export async function issueAccessToken(
  ctx: TokenEndpointGrantContext,
  input: IssueInput,
): Promise<IssuedAccessToken> {
  const { provider, client } = ctx.oidc;
  const properties = {
    client,
    accountId: input.registrationId,
    gty: input.grantType,
    scope: input.scope,
  };
  // The published types insist on a grantId; leaving it out is deliberate (see the header).
  const token = new provider.AccessToken(
    properties as unknown as ConstructorParameters<typeof provider.AccessToken>[0],
  );
  token.resourceServer = new provider.ResourceServer(input.resource, {
    scope: input.scope,
    accessTokenTTL: input.ttlSeconds,
    accessTokenFormat: 'opaque',
  });
  token.extra = { account: input.accountId };
  let value: string;
  try {
    value = await token.save();
  } catch (error) {
    if (error instanceof RegistrationNotLiveError) {
      throw new errors.CustomOIDCProviderError(
        'invalid_grant',
        'the registration has been revoked',
      );
    }
    throw error;
  }
  ctx.oidc.entity('AccessToken', token);
  return {
    value,
    expiresIn: token.expiration,
    scope: input.scope,
    tokenType: token.tokenType,
    destroy: () => token.destroy(),
  };
}
