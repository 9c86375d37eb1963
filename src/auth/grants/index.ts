/**
 * The token endpoint's grants, registered with oidc-provider's `registerGrantType`. Each grant is a
 * module exporting `grantType`, a frozen `parameters` list and `buildHandler(deps)`; handlers throw
 * oidc-provider's own error classes so the wire format stays RFC 6749's.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import type Provider from 'oidc-provider';
import type { IdentityAssertions } from '../identity-assertion.ts';
import * as claim from './claim.ts';
import * as jwtBearer from './jwt-bearer.ts';

export interface GrantDeps {
  orm: MikroORM;
  assertions: IdentityAssertions;
  /** The API's resource identifier (PUBLIC_BASE_URL): every access token's audience. */
  resource: string;
  accessTokenTtl: number;
  pollInterval: number;
  clock: () => Date;
}

export const grantTypes = [claim.grantType, jwtBearer.grantType] as const;

export function registerGrants(provider: Provider, deps: GrantDeps) {
  provider.registerGrantType(claim.grantType, claim.buildHandler(deps), claim.parameters);
  provider.registerGrantType(
    jwtBearer.grantType,
    jwtBearer.buildHandler(deps),
    jwtBearer.parameters,
  );
}
