/**
 * Discovery documents, built only from configuration (never from the request's Host header):
 * - RFC 8414 authorization server metadata at /.well-known/oauth-authorization-server (served by
 *   oidc-provider, whose body is replaced by this one: its OpenID Connect fields do not apply);
 * - RFC 9728 protected resource metadata at /.well-known/oauth-protected-resource, whose
 *   `resource` is PUBLIC_BASE_URL, the identifier that URL is derived from (§3.3).
 * Both carry the `agent_auth` object the interface specifies.
 */
import type { Config } from '../config.ts';
import { grantType as claimGrantType } from './grants/claim.ts';
import { grantType as jwtBearerGrantType } from './grants/jwt-bearer.ts';
import { scopes } from './principal.ts';

export const paths = {
  token: '/oauth2/token',
  revocation: '/oauth2/revoke',
  authorization: '/oauth2/authorize',
  registration: '/oauth2/register',
  jwks: '/oauth2/jwks',
  authorizationServerMetadata: '/.well-known/oauth-authorization-server',
  protectedResourceMetadata: '/.well-known/oauth-protected-resource',
  identity: '/agent/identity',
  claim: '/agent/identity/claim',
  events: '/agent/event/notify',
  skill: '/agent/skill.md',
} as const;

type MetadataConfig = Pick<Config, 'publicBaseUrl' | 'eventsSchemaBase' | 'serviceAuthEnabled'>;

export const revokedEventType = (config: Pick<Config, 'eventsSchemaBase'>) =>
  `${config.eventsSchemaBase}/events/agent/auth/identity/assertion/revoked`;

export function agentAuthMetadata(config: MetadataConfig) {
  const base = config.publicBaseUrl;
  return {
    skill: `${base}${paths.skill}`,
    identity_endpoint: `${base}${paths.identity}`,
    claim_endpoint: `${base}${paths.claim}`,
    events_endpoint: `${base}${paths.events}`,
    identity_types_supported: config.serviceAuthEnabled ? ['service_auth'] : [],
    identity_assertion: { assertion_types_supported: [] },
    events_supported: [revokedEventType(config)],
  };
}

export function authorizationServerMetadata(config: MetadataConfig) {
  const base = config.publicBaseUrl;
  return {
    issuer: base,
    token_endpoint: `${base}${paths.token}`,
    revocation_endpoint: `${base}${paths.revocation}`,
    jwks_uri: `${base}${paths.jwks}`,
    // MCP hosts (src/auth/mcp-hosts.ts): authorization code + PKCE S256, RFC 7591 registration.
    authorization_endpoint: `${base}${paths.authorization}`,
    registration_endpoint: `${base}${paths.registration}`,
    grant_types_supported: [jwtBearerGrantType, claimGrantType, 'authorization_code'],
    scopes_supported: [...scopes],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    code_challenge_methods_supported: ['S256'],
    // Clients are public (the default client, no secret). Omitting these would mean
    // client_secret_basic by RFC 8414's defaults.
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    agent_auth: agentAuthMetadata(config),
  };
}

export function protectedResourceMetadata(config: MetadataConfig) {
  return {
    resource: config.publicBaseUrl,
    resource_name: 'Latchkey API',
    authorization_servers: [config.publicBaseUrl],
    scopes_supported: [...scopes],
    bearer_methods_supported: ['header'],
    agent_auth: agentAuthMetadata(config),
  };
}

/** The exact `WWW-Authenticate` of every 401 from the API (the interface's Authentication §1). */
export const unauthenticatedChallenge = (config: Pick<Config, 'publicBaseUrl'>) =>
  `Bearer resource_metadata="${config.publicBaseUrl}${paths.protectedResourceMetadata}"`;
