/**
 * The authorization server: node-oidc-provider configured for agents, and nothing it does not
 * need. Issuer = PUBLIC_BASE_URL (routes carry full paths; discovery is rewritten from
 * configuration, so the Host header never shapes a URL).
 *
 * - Grants: the claim grant and jwt-bearer (grants/) for agents; the authorization code flow
 *   with PKCE S256 and dynamic registration for MCP hosts (mcp-hosts.ts). The built-in
 *   client_credentials grant exists only in a bench instance (`benchClient`), never from
 *   configuration.
 * - Clients: one static public client (`token_endpoint_auth_method: none`), injected into requests
 *   that carry no client authentication at all (provider-mount.ts explains why and how).
 * - Keys: the identity-assertion key ring is the provider's `jwks`, so `/oauth2/jwks` publishes it.
 * - Errors always render as RFC 6749 JSON, even for clients that prefer HTML.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import Provider, {
  type ClientMetadata,
  errors,
  type JWKS,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import {
  isDependencyUnavailable,
  OAuthError,
  oauthBody,
  UNAVAILABLE_RETRY_AFTER,
} from '../errors/index.ts';
import { createAdapterFactory, RegistrationNotLiveError } from './adapter.ts';
import { grantTypes, registerGrants } from './grants/index.ts';
import type { IdentityAssertions } from './identity-assertion.ts';
import {
  mcpHostConfiguration,
  mcpHostRegistration,
  mcpHostTokenClaims,
  mcpHostTtl,
} from './mcp-hosts.ts';
import { authorizationServerMetadata, paths } from './metadata.ts';
import { scopes } from './principal.ts';
import { installAccessTokenPrefix } from './provider-internals.ts';
import type { KeyRing } from './signing-keys.ts';

/** The public client every client-less token and revocation request is made as. */
export const defaultClientId = 'latchkey-agent';

export interface BenchClient {
  clientId: string;
  clientSecret: string;
}

export interface ProviderDeps {
  config: Config;
  orm: MikroORM;
  keys: KeyRing;
  assertions: IdentityAssertions;
  logger: Logger;
  /** Bench only: a confidential client allowed oidc-provider's own client_credentials grant. */
  benchClient?: BenchClient;
  /** Keys of the provider's signed cookies (the MCP-host authorization interaction). */
  cookieKeys: string[];
  /** The runtime's clock, for the grants' own bookkeeping (oidc-provider keeps its own time). */
  clock: () => Date;
}

export async function createProvider(deps: ProviderDeps): Promise<Provider> {
  const { config, benchClient } = deps;
  const resource = config.publicBaseUrl;
  const clients: ClientMetadata[] = [
    {
      client_id: defaultClientId,
      token_endpoint_auth_method: 'none',
      grant_types: [...grantTypes],
      response_types: [],
      redirect_uris: [],
      // Must be an algorithm of the key ring (with EC keys only, the default RS256 is refused).
      id_token_signed_response_alg: deps.keys.signingKey().alg,
    },
  ];
  if (benchClient) {
    clients.push({
      client_id: benchClient.clientId,
      client_secret: benchClient.clientSecret,
      token_endpoint_auth_method: 'client_secret_basic',
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      scope: scopes.join(' '),
      id_token_signed_response_alg: deps.keys.signingKey().alg,
    });
  }

  const provider = new Provider(config.publicBaseUrl, {
    adapter: createAdapterFactory(deps.orm),
    clients,
    // jose's JWK and the provider's JWK types differ only in optional members' declarations.
    jwks: deps.keys.providerJwks() as JWKS,
    clientAuthMethods: benchClient ? ['none', 'client_secret_basic'] : ['none'],
    // MCP hosts (mcp-hosts.ts): the authorization code flow, with PKCE S256 required.
    ...mcpHostConfiguration({ config, orm: deps.orm }),
    scopes: [...scopes],
    clockTolerance: 0,
    ttl: {
      AccessToken: config.accessTokenTtl,
      ClientCredentials: config.accessTokenTtl,
      ...mcpHostTtl,
    },
    routes: {
      token: paths.token,
      revocation: paths.revocation,
      jwks: paths.jwks,
      authorization: paths.authorization,
      registration: paths.registration,
      // Never mounted (provider-mount.ts forwards an allowlist); kept under /oauth2 for tidiness.
      introspection: '/oauth2/introspect',
      userinfo: '/oauth2/userinfo',
      end_session: '/oauth2/logout',
      pushed_authorization_request: '/oauth2/par',
      code_verification: '/oauth2/device',
      device_authorization: '/oauth2/device/auth',
      backchannel_authentication: '/oauth2/backchannel',
      challenge: '/oauth2/challenge',
      credential: '/oauth2/credential',
    },
    features: {
      devInteractions: { enabled: false },
      registration: mcpHostRegistration,
      dPoP: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      userinfo: { enabled: false },
      introspection: { enabled: false },
      clientCredentials: { enabled: benchClient !== undefined },
      revocation: {
        enabled: true,
        // RFC 7009 §2.1: a client may revoke the tokens issued to it.
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator) => {
          // Also reached by the authorization endpoint: a token for any other audience is refused.
          if (indicator !== resource) throw new errors.InvalidTarget();
          return {
            scope: scopes.join(' '),
            accessTokenTTL: config.accessTokenTtl,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    // Access tokens carry their tenant in `extra`: set by grants/issue-access-token.ts for the
    // agent grants, looked up from the registration for MCP hosts' authorization codes.
    extraTokenClaims: (_ctx, token) => mcpHostTokenClaims(deps.orm, token),
    renderError: (ctx: KoaContextWithOIDC, out) => {
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = out;
    },
    cookies: { keys: deps.cookieKeys },
  });

  installAccessTokenPrefix(provider);
  registerGrants(provider, {
    orm: deps.orm,
    assertions: deps.assertions,
    resource,
    accessTokenTtl: config.accessTokenTtl,
    pollInterval: config.claimPollInterval,
    clock: deps.clock,
  });

  // RFC 8414 metadata from configuration only (the provider's own body has OIDC fields and URLs
  // derived from the Host header).
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.oidc?.route === 'discovery' && ctx.status === 200) {
      ctx.body = authorizationServerMetadata(config);
    }
  });

  provider.on('server_error', (ctx, error) => {
    // An MCP host's code redeemed after the person disconnected it (the token is not stored).
    if (error instanceof RegistrationNotLiveError) {
      const refused = new OAuthError('invalid_grant', 'the registration has been revoked');
      ctx.status = refused.status;
      ctx.body = oauthBody(refused);
      return;
    }
    // Emitted before the response leaves: an unreachable database becomes RFC 6749's
    // `temporarily_unavailable` (503 + Retry-After) instead of a 500 (issue 11 §6).
    if (isDependencyUnavailable(error)) {
      deps.logger.warn({ component: 'oauth', cause: String(error) }, 'dependency down');
      const refused = new OAuthError(
        'temporarily_unavailable',
        'the service is temporarily unavailable',
      );
      ctx.status = refused.status;
      ctx.set('retry-after', String(UNAVAILABLE_RETRY_AFTER));
      ctx.body = oauthBody(refused);
      return;
    }
    deps.logger.error({ err: error, component: 'oauth' }, 'authorization server error');
  });
  provider.on('grant.error', (ctx, error) =>
    deps.logger.info(
      { component: 'oauth', grantType: ctx.oidc.params?.grant_type, error: error.message },
      'token request refused',
    ),
  );

  // Static clients are validated lazily; surface a bad one at start, not on the first request.
  for (const client of clients) await provider.Client.find(client.client_id);
  return provider;
}
