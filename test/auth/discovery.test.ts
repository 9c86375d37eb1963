/**
 * Discovery: both well-known documents with exactly the specified fields (RFC 8414, RFC 9728),
 * built from PUBLIC_BASE_URL only, and the agent guide at agent_auth.skill kept true to them.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { get } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const agentAuth = () => ({
  skill: `${t.baseUrl}/agent/skill.md`,
  identity_endpoint: `${t.baseUrl}/agent/identity`,
  claim_endpoint: `${t.baseUrl}/agent/identity/claim`,
  events_endpoint: `${t.baseUrl}/agent/event/notify`,
  identity_types_supported: ['service_auth'],
  identity_assertion: { assertion_types_supported: [] },
  events_supported: ['https://schemas.latchkey.dev/events/agent/auth/identity/assertion/revoked'],
});
const scopes = [
  'sessions:write',
  'sessions:read',
  'otp:read',
  'usage:read',
  'keys:manage',
  'webhooks:manage',
  'authenticators:manage',
];

describe('authorization server metadata (RFC 8414)', () => {
  test('has exactly the specified fields, no OpenID Connect ones', async () => {
    const response = await get(`${t.baseUrl}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({
      issuer: t.baseUrl,
      token_endpoint: `${t.baseUrl}/oauth2/token`,
      revocation_endpoint: `${t.baseUrl}/oauth2/revoke`,
      jwks_uri: `${t.baseUrl}/oauth2/jwks`,
      authorization_endpoint: `${t.baseUrl}/oauth2/authorize`,
      registration_endpoint: `${t.baseUrl}/oauth2/register`,
      grant_types_supported: [
        'urn:ietf:params:oauth:grant-type:jwt-bearer',
        'urn:latchkey:agent-auth:grant-type:claim',
        'authorization_code',
      ],
      scopes_supported: scopes,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      revocation_endpoint_auth_methods_supported: ['none'],
      agent_auth: agentAuth(),
    });
  });

  test('the issuer never follows the Host header or X-Forwarded-* headers', async () => {
    const response = await get(`${t.baseUrl}/.well-known/oauth-authorization-server`, {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-proto': 'https',
    });
    expect(response.text).not.toContain('evil.example');
    expect(response.body.issuer).toBe(t.baseUrl);
  });

  test('jwks_uri publishes the key that signs identity assertions', async () => {
    const jwks = await get(`${t.baseUrl}/oauth2/jwks`);
    expect(jwks.status).toBe(200);
    const kid = t.app.server.agentAuth.keys.signingKey().kid;
    expect(jwks.body.keys.map((k: { kid: string }) => k.kid)).toContain(kid);
  });
});

describe('protected resource metadata (RFC 9728)', () => {
  test('has exactly the specified fields and its resource is the URL it is served under', async () => {
    const url = `${t.baseUrl}/.well-known/oauth-protected-resource`;
    const response = await get(url);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      resource: t.baseUrl,
      resource_name: 'Latchkey API',
      authorization_servers: [t.baseUrl],
      scopes_supported: scopes,
      bearer_methods_supported: ['header'],
      agent_auth: agentAuth(),
    });
    // §3.3: inserting the well-known path into the resource identifier gives this very URL.
    const resource = new URL(response.body.resource);
    expect(
      `${resource.origin}/.well-known/oauth-protected-resource${resource.pathname.replace(/\/$/, '')}`,
    ).toBe(url);
  });

  test('its authorization server publishes the issuer it names', async () => {
    const resource = await get(`${t.baseUrl}/.well-known/oauth-protected-resource`);
    const issuer = resource.body.authorization_servers[0];
    const as = await get(`${issuer}/.well-known/oauth-authorization-server`);
    expect(as.body.issuer).toBe(issuer);
  });
});

describe('the agent guide (agent_auth.skill)', () => {
  test('is Markdown served by the API host', async () => {
    const response = await get(`${t.baseUrl}/agent/skill.md`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(response.text).toMatch(/^# /);
    expect(response.text).not.toMatch(/\{(base_url|console_url|events_schema_base)\}/);
  });

  test('names every endpoint, grant type, scope and event the metadata publishes', async () => {
    const guide = (await get(`${t.baseUrl}/agent/skill.md`)).text;
    const as = (await get(`${t.baseUrl}/.well-known/oauth-authorization-server`)).body;
    const pr = (await get(`${t.baseUrl}/.well-known/oauth-protected-resource`)).body;
    const strings = new Set<string>();
    const collect = (value: unknown) => {
      if (typeof value === 'string') strings.add(value);
      else if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object') Object.values(value).forEach(collect);
    };
    collect(as);
    collect(pr);
    strings.delete('Latchkey API');
    for (const value of strings) expect(guide, `guide lacks ${value}`).toContain(value);
    for (const field of Object.keys(as.agent_auth)) expect(guide).toContain(`\`${field}`);
  });

  test('explains every error an agent can meet while authenticating', async () => {
    const guide = (await get(`${t.baseUrl}/agent/skill.md`)).text;
    for (const code of [
      'invalid_request',
      'anonymous_not_enabled',
      'service_auth_not_enabled',
      'identity_assertion_not_enabled',
      'authorization_pending',
      'slow_down',
      'expired_token',
      'invalid_grant',
      'unsupported_grant_type',
      'invalid_client',
      'invalid_target',
      'invalid_scope',
      'unsupported_token_type',
      'insufficient_scope',
      'unauthenticated',
      'invalid_key',
      'invalid_issuer',
      'invalid_audience',
    ]) {
      expect(guide, `guide lacks ${code}`).toContain(`\`${code}\``);
    }
  });

  test('shows the exact 401 challenge, the claim page and the default client', async () => {
    const guide = (await get(`${t.baseUrl}/agent/skill.md`)).text;
    expect(guide).toContain(
      `WWW-Authenticate: Bearer resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource"`,
    );
    expect(guide).toContain(`${t.consoleUrl}/claim?claim_attempt_token=cla_`);
    expect(guide).toContain('client_id=latchkey-agent');
    expect(guide).toContain('x-api-key');
  });
});
