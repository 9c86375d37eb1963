/**
 * The token endpoint's envelope (RFC 6749 §5.2), independent of any grant: requests without a
 * client work through the default public client, and unsupported_grant_type, invalid_client and
 * invalid_request come out where the RFC puts them. Only the allow-listed provider routes exist.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { claimGrant, email, get, postForm, register, token } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const unsupported = {
  error: 'unsupported_grant_type',
  error_description: 'unsupported grant_type requested',
};
const invalidClient = {
  error: 'invalid_client',
  error_description: 'client authentication failed',
};
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('requests without a client', () => {
  test('are served as the default public client', async () => {
    const registration = await register(t, email('clientless'));
    const response = await token(t, {
      grant_type: claimGrant,
      claim_token: registration.claim_token,
    });
    expect(response.body.error).toBe('authorization_pending');
  });

  test('naming the default client explicitly (as stock clients do) is the same', async () => {
    const registration = await register(t, email('named'));
    const response = await token(t, {
      grant_type: claimGrant,
      claim_token: registration.claim_token,
      client_id: 'latchkey-agent',
    });
    expect(response.body.error).toBe('authorization_pending');
  });

  test.each([
    'password',
    'client_credentials',
    'urn:ietf:params:oauth:grant-type:device_code',
    'implicit',
    'urn:example:unknown',
  ])('grant_type %s is unsupported_grant_type', async (grantType) => {
    const response = await token(t, { grant_type: grantType });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(unsupported);
  });

  // These grants exist for MCP hosts' own registered clients, never for the default client.
  test.each(['authorization_code', 'refresh_token'])(
    'grant_type %s without a registered client is refused as not allowed for this client',
    async (grantType) => {
      const response = await token(t, { grant_type: grantType });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        error: 'invalid_request',
        error_description: 'requested grant type is not allowed for this client',
      });
    },
  );

  test('a missing grant_type is invalid_request', async () => {
    const response = await token(t, { claim_token: 'x' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_request',
      error_description: "missing required parameter 'grant_type'",
    });
  });

  test('a repeated grant_type is invalid_request', async () => {
    const response = await token(t, 'grant_type=password&grant_type=password');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_request',
      error_description: "'grant_type' parameter must not be provided twice",
    });
  });

  test('a JSON body is invalid_request (the endpoint takes forms only)', async () => {
    const response = await fetch(`${t.baseUrl}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: claimGrant, claim_token: 'x' }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'invalid_request',
      error_description:
        'only application/x-www-form-urlencoded content-type bodies are supported on POST /oauth2/token',
    });
  });

  test('a request without a body or content type is invalid_request', async () => {
    const response = await fetch(`${t.baseUrl}/oauth2/token`, { method: 'POST' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'invalid_request',
      error_description:
        'only application/x-www-form-urlencoded content-type bodies are supported on POST /oauth2/token',
    });
  });

  test('garbage in the form is refused cleanly', async () => {
    const response = await token(t, '%%%&&&=\u0000grant_type');
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid_request');
  });

  test('an oversized form is refused without a 500', async () => {
    const response = await token(t, { grant_type: claimGrant, claim_token: 'x'.repeat(60 * 1024) });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({
      error: 'invalid_request',
      error_description: 'request body is too large',
    });
  });

  test('errors are JSON even for a client that prefers HTML', async () => {
    const response = await postForm(
      `${t.baseUrl}/oauth2/token`,
      { grant_type: 'password' },
      { accept: 'text/html' },
    );
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual(unsupported);
  });

  test('responses keep the host request id and no-store', async () => {
    const response = await token(t, { grant_type: 'password' });
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(response.headers.get('cache-control')).toBe('no-store');
  });
});

describe('client authentication', () => {
  test('an unknown client_id is invalid_client (401)', async () => {
    const response = await token(t, {
      grant_type: claimGrant,
      claim_token: 'x',
      client_id: 'someone-else',
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(invalidClient);
  });

  test('the default client is public: a client_secret is not a recognised parameter and is ignored', async () => {
    const response = await token(t, {
      grant_type: claimGrant,
      claim_token: 'x',
      client_id: 'latchkey-agent',
      client_secret: 'guess',
    });
    expect(response.body).toEqual({
      error: 'invalid_grant',
      error_description: 'claim_token is not valid',
    });
  });

  test('a client_secret without a client_id authenticates nobody: invalid_request', async () => {
    const response = await token(t, {
      grant_type: claimGrant,
      claim_token: 'x',
      client_secret: 'guess',
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_request',
      error_description: 'no client authentication mechanism provided',
    });
  });

  test('HTTP Basic credentials of an unknown client are invalid_client with a Basic challenge', async () => {
    const response = await postForm(
      `${t.baseUrl}/oauth2/token`,
      { grant_type: claimGrant, claim_token: 'x' },
      { authorization: basic('intruder', 'secret') },
    );
    expect(response.status).toBe(401);
    expect(response.body).toEqual(invalidClient);
    expect(response.headers.get('www-authenticate')).toMatch(/^Basic realm="/);
  });

  test('a malformed Authorization header is invalid_request', async () => {
    const response = await postForm(
      `${t.baseUrl}/oauth2/token`,
      { grant_type: claimGrant, claim_token: 'x' },
      { authorization: 'Basic !!!' },
    );
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_request',
      error_description: 'invalid authorization header value format',
    });
  });

  test('a client assertion from nowhere is refused', async () => {
    const response = await token(t, {
      grant_type: claimGrant,
      claim_token: 'x',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJsYXRjaGtleS1hZ2VudCJ9.',
    });
    expect([400, 401]).toContain(response.status);
    expect(['invalid_client', 'invalid_request']).toContain(response.body.error);
  });
});

describe('the mounted surface', () => {
  test.each([
    ['GET', '/oauth2/token'],
    ['POST', '/oauth2/introspect'],
    ['GET', '/.well-known/openid-configuration'],
    ['GET', '/oauth2/userinfo'],
    ['POST', '/oauth2/device/auth'],
  ])('%s %s is not served', async (method, path) => {
    const response = await fetch(`${t.baseUrl}${path}`, { method });
    expect(response.status).toBe(404);
  });

  test('a forged Host header changes no URL the provider publishes', async () => {
    const metadata = await get(`${t.baseUrl}/.well-known/oauth-authorization-server`, {
      host: 'evil.example',
    });
    expect(metadata.status).toBe(200);
    expect(metadata.text).not.toContain('evil.example');
    expect(metadata.body.token_endpoint).toBe(`${t.baseUrl}/oauth2/token`);
  });
});
