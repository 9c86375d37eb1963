/**
 * The claim grant (urn:latchkey:agent-auth:grant-type:claim): every transition of the spec's
 * registration table that the poll sees, with the exact RFC 6749 / RFC 8628 error bodies.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { markRevoked, markTokensIssued } from '../../src/domain/agents/registrations.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { ctxOf } from '../helpers/challenges.ts';
import { MovableClock } from '../helpers/clock.ts';
import {
  claimGrant,
  claimPath,
  email,
  person,
  poll,
  register,
  submitClaim,
  token,
} from './support.ts';

const pending = {
  error: 'authorization_pending',
  error_description:
    "authorization request is still pending as the end-user hasn't yet completed the user interaction steps",
};
const slowDown = {
  error: 'slow_down',
  error_description: 'you are polling too quickly and should back off at a reasonable rate',
};
const expired = {
  error: 'expired_token',
  error_description: 'the claim has expired or was locked; register again for a new code',
};

// The app's clock: the tests move it past poll intervals and code windows instead of sleeping.
const clock = new MovableClock();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { CLAIM_POLL_INTERVAL: '1' }, clock: clock.now });
});
afterAll(() => t?.stop());

describe('claim pending', () => {
  test('a poll before the person claims is authorization_pending', async () => {
    const registration = await register(t, email('pending'));
    const response = await poll(t, registration.claim_token);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(pending);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  test('a poll faster than the interval is slow_down; one after the interval is pending again', async () => {
    const registration = await register(t, email('fast'));
    expect((await poll(t, registration.claim_token)).body).toEqual(pending);
    const fast = await poll(t, registration.claim_token);
    expect(fast.status).toBe(400);
    expect(fast.body).toEqual(slowDown);
    clock.advance(1);
    expect((await poll(t, registration.claim_token)).body).toEqual(pending);
  });

  test('five wrong codes lock the claim: the poll answers expired_token', async () => {
    const address = email('locked');
    const registration = await register(t, address);
    const client = await person(t, address);
    for (let i = 0; i < 5; i += 1) {
      const wrong = await submitClaim(client, registration, 'BBBB-BBBB');
      expect(wrong.response.status).toBe(i < 4 ? 400 : 410);
    }
    const response = await poll(t, registration.claim_token);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(expired);
    // Even the right code is refused now.
    const right = await submitClaim(client, registration, registration.claim.user_code);
    expect(right.response.status).toBe(410);
  });
});

describe('claimed', () => {
  test('the next poll returns access_token and identity_assertion, exactly once', async () => {
    const address = email('claimed');
    const registration = await register(t, address);
    const client = await person(t, address);
    expect(
      (await submitClaim(client, registration, registration.claim.user_code)).response.status,
    ).toBe(200);

    const response = await poll(t, registration.claim_token);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('pragma')).toBe('no-cache');
    expect(Object.keys(response.body).sort()).toEqual(
      [
        'access_token',
        'assertion_expires',
        'expires_in',
        'identity_assertion',
        'scope',
        'token_type',
      ].sort(),
    );
    expect(response.body.access_token).toMatch(/^agt_[A-Za-z0-9_-]{43}$/);
    expect(response.body.token_type).toBe('Bearer');
    expect(response.body.expires_in).toBe(3600);
    expect(response.body.scope).toBe('sessions:write sessions:read otp:read usage:read');
    expect(response.body.identity_assertion.split('.')).toHaveLength(3);
    expect(response.body.assertion_expires).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    clock.advance(1);
    const again = await poll(t, registration.claim_token);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      error: 'invalid_grant',
      error_description: 'claim_token has already been used',
    });
  });

  test('concurrent polls after the claim hand out tokens to exactly one of them', async () => {
    const address = email('race');
    const registration = await register(t, address);
    const client = await person(t, address);
    await submitClaim(client, registration, registration.claim.user_code);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => poll(t, registration.claim_token)),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(['slow_down', 'invalid_grant']).toContain(answer.body.error);
    }
  });

  test('spending a claim token is atomic: of racing spenders exactly one wins', async () => {
    const address = email('spend');
    const registration = await register(t, address);
    const client = await person(t, address);
    await submitClaim(client, registration, registration.claim.user_code);
    const wins = await Promise.all(
      Array.from({ length: 5 }, () => markTokensIssued(ctxOf(t.app), registration.registration_id)),
    );
    expect(wins.filter(Boolean)).toHaveLength(1);
    const response = await poll(t, registration.claim_token);
    expect(response.body).toEqual({
      error: 'invalid_grant',
      error_description: 'claim_token has already been used',
    });
  });
});

describe('refusals', () => {
  test('an unknown claim_token is invalid_grant', async () => {
    const response = await poll(t, 'clm_not-a-real-claim-token-at-all-000000000000000');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_grant',
      error_description: 'claim_token is not valid',
    });
  });

  test('a missing claim_token is invalid_request', async () => {
    const response = await token(t, { grant_type: claimGrant });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_request',
      error_description: "missing required parameter 'claim_token'",
    });
  });

  test('a repeated claim_token is invalid_request', async () => {
    const response = await token(
      t,
      `grant_type=${encodeURIComponent(claimGrant)}&claim_token=a&claim_token=b`,
    );
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_request',
      error_description: "'claim_token' parameter must not be provided twice",
    });
  });

  test("a revoked registration's claim_token is invalid_grant", async () => {
    const registration = await register(t, email('revoked'));
    expect(await markRevoked(ctxOf(t.app), registration.registration_id)).toBe(true);
    const response = await poll(t, registration.claim_token);
    expect(response.body).toEqual({
      error: 'invalid_grant',
      error_description: 'the registration has been revoked',
    });
  });
});

describe('windows (USER_CODE_TTL=1)', () => {
  let short: TestApp;
  const shortClock = new MovableClock();
  beforeAll(async () => {
    short = await startTestApp({
      env: { USER_CODE_TTL: '1', CLAIM_POLL_INTERVAL: '1' },
      clock: shortClock.now,
    });
  });
  afterAll(() => short?.stop());

  test('a lapsed code window is expired_token, and the claim page refuses the code', async () => {
    const address = email('lapsed');
    const registration = await register(short, address);
    expect(registration.claim.expires_in).toBe(1);
    const client = await person(short, address);
    shortClock.advance(1.1);
    const response = await poll(short, registration.claim_token);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(expired);
    const page = await client.get(claimPath(registration));
    expect(page.response.status).toBe(410);
    expect(page.text).toContain('claim_expired');
    expect(page.text).not.toContain('name="code"');
    const late = await submitClaim(client, registration, registration.claim.user_code);
    expect(late.response.status).toBe(410);
  });

  test('a claim made inside the window can still be collected after it, until claim_token_expires', async () => {
    const address = email('collect');
    const registration = await register(short, address);
    const client = await person(short, address);
    expect(
      (await submitClaim(client, registration, registration.claim.user_code)).response.status,
    ).toBe(200);
    shortClock.advance(1.1);
    const response = await poll(short, registration.claim_token);
    expect(response.status).toBe(200);
    expect(response.body.access_token).toMatch(/^agt_/);
  });

  test('after claim_token_expires an uncollected claim is expired_token', async () => {
    const address = email('uncollected');
    const registration = await register(short, address);
    const client = await person(short, address);
    expect(
      (await submitClaim(client, registration, registration.claim.user_code)).response.status,
    ).toBe(200);
    shortClock.passBeyond(registration.claim_token_expires, 1.1);
    const response = await poll(short, registration.claim_token);
    expect(response.body).toEqual(expired);
  });
});
