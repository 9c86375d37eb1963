/**
 * The whole ceremony as an agent and a person live it: the agent discovers the service from a 401,
 * registers, shows the person the link and code, and polls with a stock OAuth client
 * (oauth4webapi); the person signs up, verifies their email and claims in headless Chromium; the agent calls the API,
 * refreshes with its identity assertion (verified with jose against jwks_uri), revokes one token,
 * and a provider's security event revokes the rest.
 */
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
} from 'jose';
import * as oauth from 'oauth4webapi';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { MovableClock } from '../helpers/clock.ts';
import { linkIn } from '../helpers/mail.ts';
import { claimGrant, jwtBearer } from './support.ts';

const eventIssuer = 'https://idp.example.test';
let t: TestApp;
let browser: Browser;
let eventKey: CryptoKey;
/** The app's clock: the agent's poll interval passes on it, not in real sleeps. */
const clock = new MovableClock();

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  eventKey = pair.privateKey;
  const publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'idp-1', alg: 'ES256' };
  t = await startTestApp({
    env: {
      CLAIM_POLL_INTERVAL: '1',
      EVENTS_TRUSTED_ISSUERS: JSON.stringify([
        { issuer: eventIssuer, jwks: { keys: [publicJwk] } },
      ]),
    },
    clock: clock.now,
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

const insecure = { [oauth.allowInsecureRequests]: true };

test('an agent registers, a person claims in the browser, and the agent lives through refresh and revocation', async () => {
  // 1. The agent meets a 401 and follows WWW-Authenticate to the metadata.
  const first = await fetch(`${t.baseUrl}/v1/api-keys`);
  expect(first.status).toBe(401);
  const challenge = first.headers.get('www-authenticate')!;
  const resourceMetadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;
  const resourceMetadata = await (await fetch(resourceMetadataUrl)).json();
  expect(resourceMetadata.resource).toBe(t.baseUrl);

  const issuer = new URL(resourceMetadata.authorization_servers[0]);
  const as = await oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
  expect(as.grant_types_supported).toContain(claimGrant);
  const agentAuth = as.agent_auth as { identity_endpoint: string };
  const client: oauth.Client = { client_id: 'latchkey-agent' };
  const none = oauth.None();

  // 2. It registers for the person, asking for keys:manage on top of the defaults.
  const registered = await fetch(agentAuth.identity_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      type: 'service_auth',
      login_hint: 'ada@example.test',
      scope: 'keys:manage',
    }),
  });
  expect(registered.status).toBe(201);
  const registration = await registered.json();
  expect(registration.post_claim_scopes).toContain('keys:manage');

  const pollOnce = async () => {
    const response = await oauth.genericTokenEndpointRequest(
      as,
      client,
      none,
      claimGrant,
      { claim_token: registration.claim_token },
      insecure,
    );
    return oauth.processGenericTokenEndpointResponse(as, client, response);
  };
  await expect(pollOnce()).rejects.toMatchObject({ error: 'authorization_pending' });

  // 3. The person opens the link, is sent to sign in, signs up instead, and claims.
  const page = await (await browser.newContext()).newPage();
  await page.goto(registration.claim.verification_uri);
  await expect.poll(() => new URL(page.url()).pathname).toBe('/console/login');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Email').fill('ada@example.test');
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/console/claim');
  // An unverified account may not claim: the person opens the link mailed to them, then the claim.
  await expect.poll(() => page.getByRole('alert').textContent()).toContain('Verify your email');
  await page.goto(linkIn(await t.mail!.next('ada@example.test'), 'verify'));
  await expect.poll(() => page.getByRole('heading', { name: 'Email verified' }).count()).toBe(1);
  await page.goto(registration.claim.verification_uri);
  expect(await page.getByText('keys:manage').count()).toBe(1);
  await page.getByLabel('Code').fill(registration.claim.user_code);
  await page.getByRole('button', { name: 'Claim' }).click();
  await expect.poll(() => page.getByText('Agent connected').count()).toBeGreaterThan(0);
  await page.context().close();

  // 4. The agent polls at its interval until the tokens come (slow_down adds 5 s, RFC 8628).
  let interval = registration.claim.interval;
  let tokens: oauth.TokenEndpointResponse | undefined;
  for (let attempt = 0; attempt < 10 && !tokens; attempt += 1) {
    clock.advance(interval);
    try {
      tokens = await pollOnce();
    } catch (error) {
      if (error instanceof oauth.ResponseBodyError && error.error === 'slow_down') interval += 5;
      else if (
        !(error instanceof oauth.ResponseBodyError && error.error === 'authorization_pending')
      )
        throw error;
    }
  }
  expect(tokens).toBeDefined();
  expect(tokens!.access_token).toMatch(/^agt_/);
  expect(tokens!.token_type).toBe('bearer');
  expect(tokens!.scope).toBe('sessions:write sessions:read otp:read usage:read keys:manage');

  // 5. The identity assertion verifies against the published jwks_uri.
  const assertion = tokens!.identity_assertion as string;
  const { payload, protectedHeader } = await jwtVerify(
    assertion,
    createRemoteJWKSet(new URL(as.jwks_uri!)),
    { issuer: as.issuer, audience: as.issuer },
  );
  expect(payload.sub).toBe(registration.registration_id);
  expect(protectedHeader.kid).toBeTruthy();
  expect(new Date(tokens!.assertion_expires as string).getTime()).toBe(payload.exp! * 1000);

  // 6. It calls the API.
  // oauth4webapi turns a 401 into a WWWAuthenticateChallengeError carrying the parsed challenge.
  const call = async (accessToken: string) => {
    try {
      return await oauth.protectedResourceRequest(
        accessToken,
        'GET',
        new URL(`${t.baseUrl}/v1/api-keys`),
        undefined,
        undefined,
        insecure,
      );
    } catch (error) {
      if (!(error instanceof oauth.WWWAuthenticateChallengeError)) throw error;
      expect(error.cause[0]).toMatchObject({
        scheme: 'bearer',
        parameters: { resource_metadata: resourceMetadataUrl },
      });
      return error.response;
    }
  };
  const listed = await call(tokens!.access_token);
  expect(listed.status).toBe(200);
  expect(await listed.json()).toEqual({ api_keys: [] });

  // 7. It refreshes with the assertion (jwt-bearer, RFC 7523) for the advertised resource.
  const exchange = () =>
    oauth
      .genericTokenEndpointRequest(
        as,
        client,
        none,
        jwtBearer,
        { assertion, resource: resourceMetadata.resource },
        insecure,
      )
      .then((response) => oauth.processGenericTokenEndpointResponse(as, client, response));
  const refreshed = await exchange();
  expect(refreshed.access_token).toMatch(/^agt_/);
  expect(refreshed.identity_assertion).toBeUndefined();
  expect((await call(refreshed.access_token)).status).toBe(200);

  // 8. Revoking the first token leaves its sibling working.
  await oauth.processRevocationResponse(
    await oauth.revocationRequest(as, client, none, tokens!.access_token, {
      additionalParameters: { token_type_hint: 'access_token' },
      ...insecure,
    }),
  );
  expect((await call(tokens!.access_token)).status).toBe(401);
  expect((await call(refreshed.access_token)).status).toBe(200);

  // 9. The provider's security event revokes the registration and everything derived from it.
  const event = await new SignJWT({
    events: {
      'https://schemas.latchkey.dev/events/agent/auth/identity/assertion/revoked': {
        subject: { format: 'iss_sub', iss: as.issuer, sub: registration.registration_id },
      },
    },
  })
    .setProtectedHeader({ alg: 'ES256', kid: 'idp-1', typ: 'secevent+jwt' })
    .setIssuer(eventIssuer)
    .setAudience(t.baseUrl)
    .setIssuedAt()
    .setJti('evt-ceremony-1')
    .sign(eventKey);
  const delivered = await fetch(`${t.baseUrl}/agent/event/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/secevent+jwt' },
    body: event,
  });
  expect(delivered.status).toBe(202);
  expect((await call(refreshed.access_token)).status).toBe(401);
  await expect(exchange()).rejects.toMatchObject({ error: 'invalid_grant' });
  // The assertion itself still verifies; it is the registration that is gone.
  await expect(
    jwtVerify(assertion, createLocalJWKSet(await (await fetch(as.jwks_uri!)).json())),
  ).resolves.toBeDefined();
});
