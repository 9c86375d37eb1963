/**
 * The authorization server: node-oidc-provider configured for agents, and nothing it does not
 * need. Issuer = PUBLIC_BASE_URL (routes carry full paths; discovery is rewritten from
 * configuration, so the Host header never shapes a URL).
 *
 * - Grants: the claim grant and jwt-bearer (grants/); `responseTypes: []` leaves no
 *   authorization-endpoint flows. The built-in client_credentials grant exists only in a bench
 *   instance (`benchClient`), never from configuration.
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
import { isDependencyUnavailable, UNAVAILABLE_RETRY_AFTER } from '../errors/index.ts';
import { createAdapterFactory } from './adapter.ts';
import { grantTypes, registerGrants } from './grants/index.ts';
import type { IdentityAssertions } from './identity-assertion.ts';
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
    responseTypes: [],
    scopes: [...scopes],
    clockTolerance: 0,
    ttl: { AccessToken: config.accessTokenTtl, ClientCredentials: config.accessTokenTtl },
    routes: {
      token: paths.token,
      revocation: paths.revocation,
      jwks: paths.jwks,
      // Never mounted (provider-mount.ts forwards an allowlist); kept under /oauth2 for tidiness.
      authorization: '/oauth2/authorize',
      introspection: '/oauth2/introspect',
      userinfo: '/oauth2/userinfo',
      end_session: '/oauth2/logout',
      pushed_authorization_request: '/oauth2/par',
      registration: '/oauth2/register',
      code_verification: '/oauth2/device',
      device_authorization: '/oauth2/device/auth',
      backchannel_authentication: '/oauth2/backchannel',
      challenge: '/oauth2/challenge',
      credential: '/oauth2/credential',
    },
    features: {
      devInteractions: { enabled: false },
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
          if (indicator !== resource) throw new errors.InvalidTarget();
          return {
            scope: scopes.join(' '),
            accessTokenTTL: config.accessTokenTtl,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    // Access tokens carry their tenant in `extra` (set by grants/issue-access-token.ts).
    extraTokenClaims: (_ctx, token) => (token as { extra?: Record<string, unknown> }).extra,
    renderError: (ctx: KoaContextWithOIDC, out) => {
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = out;
    },
    cookies: { keys: [] },
  });

  installAccessTokenPrefix(provider);
  registerGrants(provider, {
    orm: deps.orm,
    assertions: deps.assertions,
    resource,
    accessTokenTtl: config.accessTokenTtl,
    pollInterval: config.claimPollInterval,
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
    // Emitted before the response leaves: an unreachable database becomes RFC 6749's
    // `temporarily_unavailable` (503 + Retry-After) instead of a 500 (issue 11 §6).
    if (isDependencyUnavailable(error)) {
      deps.logger.warn({ component: 'oauth', cause: String(error) }, 'dependency down');
      ctx.status = 503;
      ctx.set('retry-after', String(UNAVAILABLE_RETRY_AFTER));
      ctx.body = {
        error: 'temporarily_unavailable',
        error_description: 'the service is temporarily unavailable',
      };
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
