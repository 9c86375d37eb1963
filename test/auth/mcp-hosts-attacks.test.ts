/**
 * The MCP authorization flow refuses what it must, on the wire (decisions.md "MCP hosts",
 * src/auth/mcp-hosts.ts): registrations that are not public loopback/https clients, requests
 * without PKCE S256, a redirect URI that was not registered, another resource, a denied consent,
 * another person's or an unverified person's console session, a code without its verifier, a
 * token addressed to another audience, and a disconnected host's refresh token.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { MCP_ACCEPT } from '../helpers/faces.ts';
import { FormClient } from '../helpers/form.ts';
import { email, get, password, person, postForm, postJson } from './support.ts';

let t: TestApp;
const redirectUri = 'http://127.0.0.1:9/callback';

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.stop();
});

async function registerClient(metadata: Record<string, unknown> = {}) {
  return postJson(`${t.baseUrl}/oauth2/register`, {
    client_name: 'Attack Test Host',
    redirect_uris: [redirectUri],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    ...metadata,
  });
}

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

const scope = 'sessions:read usage:read';

function authorizePath(clientId: string, params: Record<string, string | undefined>) {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    resource: t.baseUrl,
    state: 'st4te',
  });
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) query.delete(name);
    else query.set(name, value);
  }
  return `/oauth2/authorize?${query}`;
}

const location = (response: Response) => new URL(response.headers.get('location')!, t.baseUrl);

/** Starts an authorization as `browser` (a FormClient: its cookies are the browser's). */
async function startAuthorization(browser: FormClient, clientId: string, challenge: string) {
  const started = await browser.get(
    authorizePath(clientId, { code_challenge: challenge, code_challenge_method: 'S256' }),
  );
  expect(started.response.status).toBe(303);
  const consent = location(started.response);
  expect(consent.pathname).toMatch(/^\/console\/authorize\/[\w-]+$/);
  return consent.pathname;
}

/** Answers the consent page with `decision` and follows the provider back to the redirect URI. */
async function decide(browser: FormClient, consentPath: string, decision: 'approve' | 'deny') {
  const page = await browser.get(consentPath);
  expect(page.response.status).toBe(200);
  const answered = await browser.post(
    `${consentPath}/${decision}`,
    new URLSearchParams({ _csrf: FormClient.csrf(page.text) }).toString(),
  );
  expect(answered.response.status).toBe(303);
  const resumed = await browser.get(location(answered.response).pathname);
  expect(resumed.response.status).toBe(303);
  return location(resumed.response);
}

async function approvedCode() {
  const { body: client } = await registerClient();
  const browser = await person(t, email('host-owner'));
  const { verifier, challenge } = pkce();
  const back = await decide(
    browser,
    await startAuthorization(browser, client.client_id, challenge),
    'approve',
  );
  return { client, browser, verifier, code: back.searchParams.get('code')! };
}

const exchange = (clientId: string, code: string, verifier?: string) =>
  postForm(`${t.baseUrl}/oauth2/token`, {
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    redirect_uri: redirectUri,
    resource: t.baseUrl,
    ...(verifier ? { code_verifier: verifier } : {}),
  });

const listTools = (token: string) =>
  fetch(`${t.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      accept: MCP_ACCEPT,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });

describe('dynamic client registration (RFC 7591)', () => {
  test('an anonymous public client with a loopback redirect URI is registered without a secret', async () => {
    const { status, body } = await registerClient();
    expect(status).toBe(201);
    expect(body.token_endpoint_auth_method).toBe('none');
    expect(body.client_secret).toBeUndefined();
    expect(body.registration_access_token).toBeUndefined();
    expect(body.redirect_uris).toEqual([redirectUri]);
  });

  test('an https redirect URI is accepted', async () => {
    const { status } = await registerClient({ redirect_uris: ['https://host.example/cb'] });
    expect(status).toBe(201);
  });

  test('a non-loopback http redirect URI is refused with invalid_redirect_uri', async () => {
    const { status, body } = await registerClient({ redirect_uris: ['http://host.example/cb'] });
    expect(status).toBe(400);
    expect(body).toEqual({
      error: 'invalid_redirect_uri',
      error_description:
        'redirect_uris must use https, or http on a loopback address (127.0.0.1, [::1], localhost)',
    });
  });

  test('a confidential client (client_secret_basic) is refused', async () => {
    const { status, body } = await registerClient({
      token_endpoint_auth_method: 'client_secret_basic',
    });
    expect(status).toBe(400);
    expect(body.error).toBe('invalid_client_metadata');
  });
});

describe('the authorization request', () => {
  test('without PKCE it is refused back to the client with invalid_request', async () => {
    const { body: client } = await registerClient();
    const { response } = await new FormClient(t.baseUrl).get(authorizePath(client.client_id, {}));
    const back = location(response);
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  test('with the plain PKCE method it is refused with invalid_request', async () => {
    const { body: client } = await registerClient();
    const { verifier } = pkce();
    const { response } = await new FormClient(t.baseUrl).get(
      authorizePath(client.client_id, { code_challenge: verifier, code_challenge_method: 'plain' }),
    );
    const back = location(response);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toMatch(/code_challenge_method/);
  });

  test('a redirect URI that was not registered is refused on the page, never redirected to', async () => {
    const { body: client } = await registerClient();
    const { challenge } = pkce();
    const { response, text } = await new FormClient(t.baseUrl).get(
      authorizePath(client.client_id, {
        code_challenge: challenge,
        code_challenge_method: 'S256',
        redirect_uri: 'http://127.0.0.1:9/elsewhere',
      }),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(JSON.parse(text).error).toBe('invalid_redirect_uri');
  });

  test('an unknown client is refused on the page with invalid_client, never redirected', async () => {
    const { response, text } = await new FormClient(t.baseUrl).get(
      authorizePath('no-such-client', { code_challenge: pkce().challenge }),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(JSON.parse(text).error).toBe('invalid_client');
  });

  test('another resource is refused with invalid_target', async () => {
    const { body: client } = await registerClient();
    const { challenge } = pkce();
    const { response } = await new FormClient(t.baseUrl).get(
      authorizePath(client.client_id, {
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: 'https://elsewhere.example',
      }),
    );
    expect(location(response).searchParams.get('error')).toBe('invalid_target');
  });
});

describe('consent on the console', () => {
  test('a denied consent returns access_denied to the client', async () => {
    const { body: client } = await registerClient();
    const browser = await person(t, email('denier'));
    const back = await decide(
      browser,
      await startAuthorization(browser, client.client_id, pkce().challenge),
      'deny',
    );
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('st4te');
    expect(back.searchParams.get('code')).toBeNull();
  });

  test("another person's console session can neither see nor approve the request", async () => {
    const { body: client } = await registerClient();
    const owner = await person(t, email('owner'));
    const consentPath = await startAuthorization(owner, client.client_id, pkce().challenge);
    const other = await person(t, email('other'));
    const seen = await other.get(consentPath);
    expect(seen.response.status).toBe(400);
    expect(seen.text).toContain('authorization_invalid');
    const dashboard = await other.get('/console/');
    const approved = await other.post(
      `${consentPath}/approve`,
      new URLSearchParams({ _csrf: FormClient.csrf(dashboard.text) }).toString(),
    );
    expect(approved.response.status).toBe(400);
    expect(approved.text).toContain('authorization_invalid');
    // The owner's request is untouched and can still be answered.
    expect((await owner.get(consentPath)).response.status).toBe(200);
  });

  test('an approval without the form token is refused with csrf_invalid', async () => {
    const { body: client } = await registerClient();
    const owner = await person(t, email('csrf'));
    const consentPath = await startAuthorization(owner, client.client_id, pkce().challenge);
    const approved = await owner.post(`${consentPath}/approve`, '');
    expect(approved.response.status).toBe(403);
    expect(approved.text).toContain('csrf_invalid');
  });

  test('a person whose email is not verified cannot approve', async () => {
    const { body: client } = await registerClient();
    const unverified = new FormClient(t.baseUrl);
    const signedUp = await unverified.submit('/console/signup', '/console/signup', {
      email: email('unverified'),
      password,
    });
    expect(signedUp.response.status).toBe(303);
    const consentPath = await startAuthorization(unverified, client.client_id, pkce().challenge);
    const page = await unverified.get(consentPath);
    expect(page.response.status).toBe(403);
    expect(page.text).toContain('email_unverified');
  });

  test('a person who is not signed in is sent to sign in and brought back', async () => {
    const { body: client } = await registerClient();
    const browser = new FormClient(t.baseUrl);
    const consentPath = await startAuthorization(browser, client.client_id, pkce().challenge);
    const { response } = await browser.get(consentPath);
    expect(response.status).toBe(303);
    const login = location(response);
    expect(login.pathname).toBe('/console/login');
    expect(login.searchParams.get('return_to')).toBe(consentPath);
  });
});

describe('tokens', () => {
  test('the code is exchanged only with its PKCE verifier, for a token bound to this API', async () => {
    const { client, code } = await approvedCode();
    const withoutVerifier = await exchange(client.client_id, code);
    expect(withoutVerifier.status).toBe(400);
    expect(withoutVerifier.body.error).toBe('invalid_grant');

    const second = await approvedCode();
    const wrong = await exchange(second.client.client_id, second.code, pkce().verifier);
    expect(wrong.body.error).toBe('invalid_grant');

    const third = await approvedCode();
    const issued = await exchange(third.client.client_id, third.code, third.verifier);
    expect(issued.status).toBe(200);
    expect(issued.body).toMatchObject({ token_type: 'Bearer', scope });
    expect(issued.body.access_token).toMatch(/^agt_/);
    expect((await listTools(issued.body.access_token)).status).toBe(200);
  });

  test("approving a second host in the same browser leaves the first host's token working", async () => {
    const first = await approvedCode();
    const firstToken = await exchange(first.client.client_id, first.code, first.verifier);
    expect(firstToken.status).toBe(200);
    // Same browser: the provider now has a session for the person (found again by its uid).
    const { body: second } = await registerClient({ client_name: 'Second Host' });
    const { verifier, challenge } = pkce();
    const back = await decide(
      first.browser,
      await startAuthorization(first.browser, second.client_id, challenge),
      'approve',
    );
    const secondToken = await exchange(second.client_id, back.searchParams.get('code')!, verifier);
    expect(secondToken.status).toBe(200);
    expect((await listTools(secondToken.body.access_token)).status).toBe(200);
    expect((await listTools(firstToken.body.access_token)).status).toBe(200);
  });

  test('a host token addressed to another audience is refused by /mcp', async () => {
    const { client, code, verifier } = await approvedCode();
    const issued = await exchange(client.client_id, code, verifier);
    expect(issued.status).toBe(200);
    const id = createHash('sha256').update(`AccessToken:${issued.body.access_token}`).digest('hex');
    await t.app.db.orm.em
      .fork()
      .getConnection()
      .execute(
        `update oidc_payload set payload = jsonb_set(payload, '{aud}', '"https://elsewhere.example"') where id = ?`,
        [id],
      );
    const refused = await listTools(issued.body.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource"`,
    );
  });

  test('a refresh token is rotated on use, and dies with the host when the person disconnects it', async () => {
    const { client, code, verifier, browser } = await approvedCode();
    const issued = await exchange(client.client_id, code, verifier);
    const refreshed = await postForm(`${t.baseUrl}/oauth2/token`, {
      grant_type: 'refresh_token',
      client_id: client.client_id,
      refresh_token: issued.body.refresh_token,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(issued.body.refresh_token);
    expect((await listTools(refreshed.body.access_token)).status).toBe(200);

    const agents = await browser.get('/console/agents');
    const registrationId = /action="\/console\/agents\/(reg_[\w-]+)\/disconnect"/.exec(
      agents.text,
    )![1];
    const disconnected = await browser.post(
      `/console/agents/${registrationId}/disconnect`,
      new URLSearchParams({ _csrf: FormClient.csrf(agents.text) }).toString(),
    );
    expect(disconnected.response.status).toBe(200);
    expect((await listTools(refreshed.body.access_token)).status).toBe(401);
    const afterwards = await postForm(`${t.baseUrl}/oauth2/token`, {
      grant_type: 'refresh_token',
      client_id: client.client_id,
      refresh_token: refreshed.body.refresh_token,
    });
    expect(afterwards.status).toBe(400);
    expect(afterwards.body.error).toBe('invalid_grant');
  });
});

describe('registration limit per address', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ env: { MCP_REGISTRATION_MAX_PER_ADDRESS: '2' } });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  test('registrations beyond the limit are refused with 429 rate_limited and Retry-After', async () => {
    const body = { redirect_uris: [redirectUri], token_endpoint_auth_method: 'none' };
    for (let i = 0; i < 2; i++) {
      expect((await postJson(`${limited.baseUrl}/oauth2/register`, body)).status).toBe(201);
    }
    const refused = await postJson(`${limited.baseUrl}/oauth2/register`, body);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
  });
});

test('the metadata the MCP SDK reads points at this authorization server', async () => {
  const resource = await get(`${t.baseUrl}/.well-known/oauth-protected-resource`);
  expect(resource.body.resource).toBe(t.baseUrl);
  expect(resource.body.authorization_servers).toEqual([t.baseUrl]);
  const server = await get(`${t.baseUrl}/.well-known/oauth-authorization-server`);
  expect(server.body).toMatchObject({
    issuer: t.baseUrl,
    authorization_endpoint: `${t.baseUrl}/oauth2/authorize`,
    registration_endpoint: `${t.baseUrl}/oauth2/register`,
    response_types_supported: ['code'],
    code_challenge_methods_supported: ['S256'],
  });
});
