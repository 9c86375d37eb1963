/**
 * The resource side (src/auth/credentials.ts): Bearer access tokens and x-api-key into a
 * Principal; 401 with exactly the interface's WWW-Authenticate, 403 insufficient_scope per
 * RFC 6750 §3.1, problem+json bodies.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CredentialError } from '../../src/auth/credentials.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { MovableClock } from '../helpers/clock.ts';
import { bearer, claimedAgent, email, get } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const challenge = () =>
  `Bearer resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource"`;
const keys = (headers: Record<string, string> = {}) => get(`${t.baseUrl}/v1/api-keys`, headers);

function expectUnauthenticated(response: Awaited<ReturnType<typeof keys>>, detail: string) {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe(challenge());
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(response.body).toEqual({
    type: `${t.baseUrl}/docs/errors#unauthenticated`,
    title: 'Credentials are missing or invalid',
    status: 401,
    detail,
    code: 'unauthenticated',
    instance: '/v1/api-keys',
  });
}

describe('401', () => {
  test('no credential', async () => {
    expectUnauthenticated(
      await keys(),
      'Credentials are missing: send Authorization: Bearer <token> or x-api-key',
    );
  });

  test.each([
    ['Basic dXNlcjpwYXNz', 'The Authorization header must be: Bearer <access token>'],
    ['Bearer', 'The Authorization header must be: Bearer <access token>'],
    ['Bearer a b', 'The Authorization header must be: Bearer <access token>'],
    ['Bearer agt_nope', 'The access token is not valid or has expired'],
    ['Bearer not-ours', 'The access token is not valid'],
    ['Bearer eyJhbGciOiJub25lIn0.e30.', 'The access token is not valid'],
  ])('Authorization: %s', async (authorization, detail) => {
    expectUnauthenticated(await keys({ authorization }), detail);
  });

  test('an unknown or malformed API key', async () => {
    expectUnauthenticated(
      await keys({ 'x-api-key': `lk_live_${'A'.repeat(43)}` }),
      'The API key is not valid',
    );
    expectUnauthenticated(await keys({ 'x-api-key': 'nonsense' }), 'The API key is not valid');
  });

  test('a token meant for another audience', async () => {
    const agent = await claimedAgent(t, email('audience'), { scope: 'keys:manage' });
    // Address the stored token elsewhere, as a token for another resource would be.
    const id = createHash('sha256').update(`AccessToken:${agent.accessToken}`).digest('hex');
    await t.app.db.orm.em
      .fork()
      .getConnection()
      .execute(
        `update oidc_payload set payload = jsonb_set(payload, '{aud}', '"https://elsewhere.example"') where id = ?`,
        [id],
      );
    expectUnauthenticated(
      await keys(bearer(agent.accessToken)),
      'The access token is not meant for this API',
    );
  });

  test('both an Authorization header and an API key are a 400', async () => {
    const response = await keys({ authorization: 'Bearer agt_x', 'x-api-key': 'lk_live_x' });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('invalid_request');
  });
});

describe('403', () => {
  test('a token without the scope gets insufficient_scope with its RFC 6750 challenge', async () => {
    const agent = await claimedAgent(t, email('scope'));
    const response = await keys(bearer(agent.accessToken));
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", scope="keys:manage"',
    );
    expect(response.body).toMatchObject({
      status: 403,
      code: 'insufficient_scope',
      detail: 'This operation needs the scope keys:manage',
    });
  });
});

describe('authenticate()', () => {
  test('resolves an access token into the agent principal', async () => {
    const agent = await claimedAgent(t, email('principal'), { scope: 'keys:manage' });
    const principal = await t.app.server.credentials.authenticate({
      authorization: `Bearer ${agent.accessToken}`,
    });
    const [row] = await t.app.db.orm.em
      .fork()
      .getConnection()
      .execute('select account_id from agent_registration where id = ?', [
        agent.registration.registration_id,
      ]);
    expect(principal).toEqual({
      kind: 'agent',
      accountId: row.account_id,
      credentialId: agent.registration.registration_id,
      agentId: agent.registration.registration_id,
      scopes: new Set(['sessions:write', 'sessions:read', 'otp:read', 'usage:read', 'keys:manage']),
      // What revokes it: the registration, or this very token (a digest, never the token).
      lineage: [agent.registration.registration_id, expect.stringMatching(/^tok_[0-9a-f]{64}$/)],
    });
  });

  test('accepts raw request headers as well (for the WebSocket face)', async () => {
    const agent = await claimedAgent(t, email('headers'));
    const principal = await t.app.server.credentials.authenticate({
      authorization: `bearer ${agent.accessToken}`,
      host: 'x',
    });
    expect(principal.kind).toBe('agent');
  });

  test('refusals carry the challenge every face must send', async () => {
    const error = await t.app.server.credentials.authenticate({}).catch((e) => e);
    expect(error).toBeInstanceOf(CredentialError);
    expect(error.status).toBe(401);
    expect(error.challenge).toBe(challenge());
  });
});

describe('expiry without tolerance (ACCESS_TOKEN_TTL=1)', () => {
  let short: TestApp;
  const clock = new MovableClock();
  beforeAll(async () => {
    short = await startTestApp({ env: { ACCESS_TOKEN_TTL: '1' }, clock: clock.now });
  });
  afterAll(() => short?.stop());

  test('a token is refused from its exp on, not 15 seconds later', async () => {
    const agent = await claimedAgent(short, email('expiry'), { scope: 'keys:manage' });
    expect(agent.tokenResponse.expires_in).toBe(1);
    const { provider } = short.app.server.agentAuth;
    const exp = (await provider.AccessToken.find(agent.accessToken))!.exp! * 1000;
    clock.passBeyond(exp, 0.02);
    const response = await get(`${short.baseUrl}/v1/api-keys`, bearer(agent.accessToken));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${short.baseUrl}/.well-known/oauth-protected-resource"`,
    );
  });
});
