/**
 * The jwt-bearer grant (RFC 7523) with the identity assertion and RFC 8707 `resource`: a new access
 * token and no assertion; forged, unsigned, expired and revoked assertions are `invalid_grant`.
 */
import { createHash } from 'node:crypto';
import {
  base64url,
  decodeJwt,
  decodeProtectedHeader,
  generateKeyPair,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { markRevoked } from '../../src/domain/agents/registrations.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { ctxOf } from '../helpers/challenges.ts';
import { MovableClock } from '../helpers/clock.ts';
import { bearer, claimedAgent, email, get, jwtBearer, token } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const invalidAssertion = {
  error: 'invalid_grant',
  error_description: 'the identity assertion is not valid',
};
const exchange = (app: TestApp, assertion: string, extra: Record<string, string> = {}) =>
  token(app, { grant_type: jwtBearer, assertion, ...extra });

/** Re-signs the assertion's claims with the server's own key after `change` (in-process). */
async function resign(
  assertion: string,
  change: (claims: Record<string, unknown>, header: Record<string, unknown>) => void,
) {
  const claims = decodeJwt(assertion) as Record<string, unknown>;
  const header = { ...decodeProtectedHeader(assertion) } as Record<string, unknown>;
  change(claims, header);
  const key = t.app.server.agentAuth.keys.signingKey();
  return new SignJWT(claims).setProtectedHeader(header as { alg: string }).sign(key.key);
}

describe('exchange', () => {
  test('a live assertion is exchanged for a new access token, without a new assertion', async () => {
    const agent = await claimedAgent(t, email('refresh'));
    const response = await exchange(t, agent.assertion, { resource: t.baseUrl });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(response.body).sort()).toEqual([
      'access_token',
      'expires_in',
      'scope',
      'token_type',
    ]);
    expect(response.body.access_token).toMatch(/^agt_/);
    expect(response.body.access_token).not.toBe(agent.accessToken);
    expect(response.body.token_type).toBe('Bearer');
    expect(response.body.expires_in).toBe(3600);
    expect(response.body.scope).toBe('sessions:write sessions:read otp:read usage:read');
    const principal = await t.app.server.credentials.authenticate(
      bearer(response.body.access_token),
    );
    expect(principal).toMatchObject({ kind: 'agent', agentId: agent.registration.registration_id });
  });

  test('resource may be omitted, or given with a trailing slash', async () => {
    const agent = await claimedAgent(t, email('resource'));
    expect((await exchange(t, agent.assertion)).status).toBe(200);
    expect((await exchange(t, agent.assertion, { resource: `${t.baseUrl}/` })).status).toBe(200);
  });

  test('another resource is invalid_target', async () => {
    const agent = await claimedAgent(t, email('target'));
    for (const resource of [
      'https://elsewhere.example',
      `${t.baseUrl}/v1`,
      'not a url',
      `${t.baseUrl}#frag`,
    ]) {
      const response = await exchange(t, agent.assertion, { resource });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: 'invalid_target',
        error_description: 'resource indicator is missing, or unknown',
      });
    }
  });

  test('a repeated resource is invalid_request', async () => {
    const agent = await claimedAgent(t, email('twice'));
    const form = `grant_type=${encodeURIComponent(jwtBearer)}&assertion=${agent.assertion}&resource=a&resource=b`;
    const response = await token(t, form);
    expect(response.body).toEqual({
      error: 'invalid_request',
      error_description: "'resource' parameter must not be provided twice",
    });
  });

  test('a narrower scope is honoured; a wider one is invalid_scope', async () => {
    const agent = await claimedAgent(t, email('narrow'), { scope: 'keys:manage' });
    const narrow = await exchange(t, agent.assertion, { scope: 'sessions:read' });
    expect(narrow.body.scope).toBe('sessions:read');
    const listed = await get(`${t.baseUrl}/v1/api-keys`, bearer(narrow.body.access_token));
    expect(listed.status).toBe(403);

    const plain = await claimedAgent(t, email('wide'));
    const wide = await exchange(t, plain.assertion, { scope: 'sessions:read keys:manage' });
    expect(wide.status).toBe(400);
    expect(wide.body).toEqual({
      error: 'invalid_scope',
      error_description: 'requested scope exceeds what the assertion grants',
      scope: 'keys:manage',
    });
  });

  test('a missing assertion is invalid_request', async () => {
    const response = await token(t, { grant_type: jwtBearer });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_request',
      error_description: "missing required parameter 'assertion'",
    });
  });
});

describe('refused assertions are invalid_grant', () => {
  test('garbage', async () => {
    for (const assertion of ['garbage', 'a.b.c', '....', 'eyJ.eyJ.sig']) {
      const response = await exchange(t, assertion);
      expect(response.status).toBe(400);
      expect(response.body).toEqual(invalidAssertion);
    }
  });

  test('signed by a foreign key that claims our kid', async () => {
    const agent = await claimedAgent(t, email('foreign'));
    const { privateKey } = await generateKeyPair('RS256');
    const claims = decodeJwt(agent.assertion);
    const header = decodeProtectedHeader(agent.assertion);
    const forged = await new SignJWT(claims)
      .setProtectedHeader(header as { alg: string })
      .sign(privateKey);
    expect((await exchange(t, forged)).body).toEqual(invalidAssertion);
  });

  test('unsigned (alg: none)', async () => {
    const agent = await claimedAgent(t, email('none'));
    const claims = decodeJwt(agent.assertion);
    const unsigned = new UnsecuredJWT(claims).encode();
    expect((await exchange(t, unsigned)).body).toEqual(invalidAssertion);
    // The original signature pasted under an alg: none header does not help either.
    const [, body, signature] = agent.assertion.split('.');
    const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'oauth-id-jag+jwt' }));
    expect((await exchange(t, `${header}.${body}.${signature}`)).body).toEqual(invalidAssertion);
  });

  test('HS256 keyed with the published public key (algorithm confusion)', async () => {
    const agent = await claimedAgent(t, email('confusion'));
    const jwks = (await get(`${t.baseUrl}/oauth2/jwks`)).body;
    const secret = new TextEncoder().encode(JSON.stringify(jwks.keys[0]));
    const forged = await new SignJWT(decodeJwt(agent.assertion))
      .setProtectedHeader({ alg: 'HS256', kid: jwks.keys[0].kid, typ: 'oauth-id-jag+jwt' })
      .sign(secret);
    expect((await exchange(t, forged)).body).toEqual(invalidAssertion);
  });

  test.each([
    [
      'another issuer',
      (c: Record<string, unknown>) => {
        c.iss = 'https://evil.example';
      },
    ],
    [
      'another audience',
      (c: Record<string, unknown>) => {
        c.aud = 'https://evil.example';
      },
    ],
    [
      'another typ',
      (_c: Record<string, unknown>, h: Record<string, unknown>) => {
        h.typ = 'JWT';
      },
    ],
    [
      'no tenant',
      (c: Record<string, unknown>) => {
        delete c.tenant;
      },
    ],
  ])('server-signed but with %s', async (_name, change) => {
    const agent = await claimedAgent(t, email('claims'));
    expect((await exchange(t, await resign(agent.assertion, change))).body).toEqual(
      invalidAssertion,
    );
  });

  test('server-signed but naming a tenant the registration did not join', async () => {
    const agent = await claimedAgent(t, email('tenant'));
    const other = await claimedAgent(t, email('tenant-other'));
    const otherTenant = decodeJwt(other.assertion).tenant;
    const forged = await resign(agent.assertion, (c) => {
      c.tenant = otherTenant;
    });
    const response = await exchange(t, forged);
    expect(response.body).toEqual({
      error: 'invalid_grant',
      error_description: 'the registration has been revoked',
    });
  });

  test('a revoked registration', async () => {
    const agent = await claimedAgent(t, email('revoked'));
    await markRevoked(ctxOf(t.app), agent.registration.registration_id);
    const response = await exchange(t, agent.assertion);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_grant',
      error_description: 'the registration has been revoked',
    });
  });

  test('the assertion is not an access token and an access token is not an assertion', async () => {
    const agent = await claimedAgent(t, email('confused'));
    expect((await exchange(t, agent.accessToken)).body).toEqual(invalidAssertion);
    expect((await get(`${t.baseUrl}/v1/api-keys`, bearer(agent.assertion))).status).toBe(401);
  });

  test('the stored token is a digest, not the bearer value', async () => {
    const agent = await claimedAgent(t, email('digest'));
    const rows = await t.app.db.orm.em
      .fork()
      .getConnection()
      .execute('select id, payload from oidc_payload');
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(agent.accessToken);
    expect(dump).not.toContain(agent.accessToken.slice(4));
    const key = createHash('sha256').update(`AccessToken:${agent.accessToken}`).digest('hex');
    expect((rows as { id: string }[]).map((r) => r.id)).toContain(key);
  });
});

describe('an expired assertion (ASSERTION_TTL=1)', () => {
  let short: TestApp;
  const clock = new MovableClock();
  beforeAll(async () => {
    short = await startTestApp({ env: { ASSERTION_TTL: '1' }, clock: clock.now });
  });
  afterAll(() => short?.stop());

  test('is invalid_grant: restart at registration', async () => {
    const agent = await claimedAgent(short, email('expired'));
    const exp = decodeJwt(agent.assertion).exp! * 1000;
    clock.passBeyond(exp, 0.05);
    const response = await exchange(short, agent.assertion);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_grant',
      error_description: 'the identity assertion has expired',
    });
  });
});

test('jwks_uri publishes public keys only, each with kid, alg and use', async () => {
  const jwks = (await get(`${t.baseUrl}/oauth2/jwks`)).body;
  for (const key of jwks.keys) {
    expect(key).not.toHaveProperty('d');
    for (const member of ['p', 'q', 'dp', 'dq', 'qi']) expect(key).not.toHaveProperty(member);
    expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(key.kid).toBeTruthy();
  }
});
