/**
 * The specification's table "States and transitions → Registration and tokens", one named test per
 * row, each asserting the state in the database and the exact wire answer. (Edge cases of each row
 * are in the grant, claim, revocation and security-event suites.)
 */
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { MovableClock } from '../helpers/clock.ts';
import {
  bearer,
  claimedAgent,
  email,
  get,
  jwtBearer,
  person,
  poll,
  postForm,
  register,
  submitClaim,
  token,
} from './support.ts';

const issuer = 'https://idp.example.test';
let t: TestApp;
let short: TestApp;
/** The short-lived app's clock: moved past code windows and assertion lifetimes, never slept. */
const shortClock = new MovableClock();
let eventKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  eventKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'e1', alg: 'ES256' };
  t = await startTestApp({
    env: { EVENTS_TRUSTED_ISSUERS: JSON.stringify([{ issuer, jwks: { keys: [jwk] } }]) },
  });
  short = await startTestApp({
    env: { USER_CODE_TTL: '1', ASSERTION_TTL: '1' },
    clock: shortClock.now,
  });
});
afterAll(async () => {
  await t?.stop();
  await short?.stop();
});

const status = async (app: TestApp, id: string) =>
  (
    await app.app.db.orm.em
      .fork()
      .getConnection()
      .execute('select status from agent_registration where id = ?', [id])
  )[0]?.status;
const apiStatus = async (accessToken: string) =>
  (await get(`${t.baseUrl}/v1/api-keys`, bearer(accessToken))).status;

describe('Registration and tokens', () => {
  test('(none) → claim pending: POST /agent/identity returns claim_token and the claim block, no assertion', async () => {
    const registration = await register(t, email('none'));
    expect(registration.claim_token).toMatch(/^clm_/);
    expect(registration.claim.verification_uri).toContain('/claim?claim_attempt_token=cla_');
    expect(registration).not.toHaveProperty('identity_assertion');
    expect(registration).not.toHaveProperty('access_token');
    expect(await status(t, registration.registration_id)).toBe('pending');
  });

  test('claim pending → claim pending: a poll before the claim is authorization_pending', async () => {
    const registration = await register(t, email('pending'));
    const response = await poll(t, registration.claim_token);
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('authorization_pending');
    expect(await status(t, registration.registration_id)).toBe('pending');
  });

  test('claim pending → expired: after the user_code window the poll is expired_token', async () => {
    const registration = await register(short, email('lapsed'));
    shortClock.advance(registration.claim.expires_in + 0.05);
    const response = await poll(short, registration.claim_token);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'expired_token',
      error_description: 'the claim has expired or was locked; register again for a new code',
    });
    expect(await status(short, registration.registration_id)).toBe('expired');
  });

  test('claim pending → claimed: the claim_email user enters the code; the next poll returns access_token and identity_assertion', async () => {
    const address = email('claim');
    const registration = await register(t, address);
    const claimed = await submitClaim(
      await person(t, address),
      registration,
      registration.claim.user_code,
    );
    expect(claimed.text).toContain('Agent connected');
    expect(await status(t, registration.registration_id)).toBe('claimed');
    const response = await poll(t, registration.claim_token);
    expect(response.status).toBe(200);
    expect(response.body.access_token).toMatch(/^agt_/);
    expect(response.body.identity_assertion).toBeTruthy();
  });

  test('claimed → claimed: a jwt-bearer exchange of a live assertion issues a new access token', async () => {
    const agent = await claimedAgent(t, email('exchange'));
    const response = await token(t, {
      grant_type: jwtBearer,
      assertion: agent.assertion,
      resource: t.baseUrl,
    });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual([
      'access_token',
      'expires_in',
      'scope',
      'token_type',
    ]);
    expect(await status(t, agent.registration.registration_id)).toBe('claimed');
  });

  test('claimed → ended: a jwt-bearer exchange of an expired assertion is invalid_grant', async () => {
    const agent = await claimedAgent(short, email('ended'));
    shortClock.passBeyond(agent.tokenResponse.assertion_expires as string, 0.05);
    const response = await token(short, { grant_type: jwtBearer, assertion: agent.assertion });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_grant',
      error_description: 'the identity assertion has expired',
    });
  });

  test('claimed → claimed: POST /oauth2/revoke with an access token stops that token only', async () => {
    const agent = await claimedAgent(t, email('revoke'), { scope: 'keys:manage' });
    const sibling = (await token(t, { grant_type: jwtBearer, assertion: agent.assertion })).body
      .access_token;
    const response = await postForm(`${t.baseUrl}/oauth2/revoke`, {
      token: agent.accessToken,
      token_type_hint: 'access_token',
    });
    expect(response.status).toBe(200);
    expect(await apiStatus(agent.accessToken)).toBe(401);
    expect(await apiStatus(sibling)).toBe(200);
    expect(await status(t, agent.registration.registration_id)).toBe('claimed');
  });

  test('claimed → revoked: the assertion-revoked event revokes the registration and every access token derived from it', async () => {
    const agent = await claimedAgent(t, email('event'), { scope: 'keys:manage' });
    const derived = (await token(t, { grant_type: jwtBearer, assertion: agent.assertion })).body
      .access_token;
    const event = await new SignJWT({
      events: {
        'https://schemas.latchkey.dev/events/agent/auth/identity/assertion/revoked': {
          subject: { format: 'iss_sub', iss: t.baseUrl, sub: agent.registration.registration_id },
        },
      },
    })
      .setProtectedHeader({ alg: 'ES256', kid: 'e1', typ: 'secevent+jwt' })
      .setIssuer(issuer)
      .setAudience(t.baseUrl)
      .setIssuedAt()
      .setJti(`states-${Date.now()}`)
      .sign(eventKey);
    const delivered = await fetch(`${t.baseUrl}/agent/event/notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/secevent+jwt' },
      body: event,
    });
    expect(delivered.status).toBe(202);
    expect(await status(t, agent.registration.registration_id)).toBe('revoked');
    expect(await apiStatus(agent.accessToken)).toBe(401);
    expect(await apiStatus(derived)).toBe(401);
    const exchange = await token(t, { grant_type: jwtBearer, assertion: agent.assertion });
    expect(exchange.body).toEqual({
      error: 'invalid_grant',
      error_description: 'the registration has been revoked',
    });
  });
});
