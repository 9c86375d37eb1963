/**
 * POST /agent/identity as specified: type dispatch, login_hint, optional scope, each error code
 * with its exact wire body, hostile bodies, and the claim_url hand-off to the console.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { email, get, postJson, register } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const identity = () => `${t.baseUrl}/agent/identity`;

describe('registration', () => {
  test('a service_auth registration returns the registration object with a claim block', async () => {
    const response = await postJson(identity(), {
      type: 'service_auth',
      login_hint: 'Ada@Example.test',
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const body = response.body;
    expect(Object.keys(body).sort()).toEqual(
      [
        'claim',
        'claim_token',
        'claim_token_expires',
        'claim_url',
        'post_claim_scopes',
        'registration_id',
        'registration_type',
      ].sort(),
    );
    expect(body.registration_id).toMatch(/^reg_[A-Za-z0-9_-]{22}$/);
    expect(body.registration_type).toBe('service_auth');
    expect(body.claim_url).toBe('/agent/identity/claim');
    expect(body.claim_token).toMatch(/^clm_[A-Za-z0-9_-]{43}$/);
    expect(body.claim_token_expires).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(new Date(body.claim_token_expires).getTime()).toBeGreaterThan(Date.now() + 599_000);
    expect(body.post_claim_scopes).toEqual([
      'sessions:write',
      'sessions:read',
      'otp:read',
      'usage:read',
    ]);
    expect(Object.keys(body.claim).sort()).toEqual([
      'expires_in',
      'interval',
      'user_code',
      'verification_uri',
    ]);
    expect(body.claim.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(body.claim.expires_in).toBe(600);
    expect(body.claim.interval).toBe(5);
    expect(body.claim.verification_uri).toMatch(
      new RegExp(`^${t.consoleUrl}/claim\\?claim_attempt_token=cla_[A-Za-z0-9_-]{43}$`),
    );
    expect(JSON.stringify(body)).not.toContain('ada@example.test');
    expect(body).not.toHaveProperty('claim_email');
  });

  test('claim_email is kept, lower-cased, and every secret is stored only as a digest', async () => {
    const response = await postJson(identity(), {
      type: 'service_auth',
      login_hint: 'Kept@Example.test',
    });
    const rows = await t.app.db.orm.em
      .fork()
      .getConnection()
      .execute('select * from agent_registration where id = ?', [response.body.registration_id]);
    expect(rows[0].claim_email).toBe('kept@example.test');
    expect(rows[0].status).toBe('pending');
    expect(rows[0].account_id).toBeNull();
    const dump = JSON.stringify(rows);
    const attempt = new URL(response.body.claim.verification_uri).searchParams.get(
      'claim_attempt_token',
    )!;
    for (const secret of [
      response.body.claim_token,
      attempt,
      response.body.claim.user_code,
      response.body.claim.user_code.replace('-', ''),
    ]) {
      expect(dump).not.toContain(secret);
    }
  });

  test('keys:manage is granted only when requested through scope', async () => {
    const body = await register(t, email('scoped'), { scope: 'keys:manage' });
    expect(body.post_claim_scopes).toEqual([
      'sessions:write',
      'sessions:read',
      'otp:read',
      'usage:read',
      'keys:manage',
    ]);
    const plain = await register(t, email('plain'), { scope: 'sessions:read' });
    expect(plain.post_claim_scopes).not.toContain('keys:manage');
  });

  test('webhooks:manage is granted only when requested through scope, like keys:manage', async () => {
    const body = await register(t, email('hooks'), { scope: 'webhooks:manage' });
    expect(body.post_claim_scopes).toEqual([
      'sessions:write',
      'sessions:read',
      'otp:read',
      'usage:read',
      'webhooks:manage',
    ]);
    const plain = await register(t, email('nohooks'));
    expect(plain.post_claim_scopes).not.toContain('webhooks:manage');
  });

  test('authenticators:manage is granted only when requested through scope, like keys:manage', async () => {
    const body = await register(t, email('totp-scoped'), { scope: 'authenticators:manage' });
    expect(body.post_claim_scopes).toEqual([
      'sessions:write',
      'sessions:read',
      'otp:read',
      'usage:read',
      'authenticators:manage',
    ]);
    const plain = await register(t, email('totp-plain'));
    expect(plain.post_claim_scopes).not.toContain('authenticators:manage');
  });

  test('an unknown scope is invalid_request', async () => {
    const response = await postJson(identity(), {
      type: 'service_auth',
      login_hint: email('x'),
      scope: 'keys:manage admin',
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_request',
      error_description: 'unknown scope: admin',
    });
  });

  test('type anonymous is anonymous_not_enabled', async () => {
    const response = await postJson(identity(), { type: 'anonymous' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'anonymous_not_enabled',
      error_description: 'registration type anonymous is not available',
    });
  });

  test('type identity_assertion is not available yet (identity_assertion_not_enabled)', async () => {
    const response = await postJson(identity(), { type: 'identity_assertion', assertion: 'x' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'identity_assertion_not_enabled',
      error_description: 'registration type identity_assertion is not available',
    });
  });

  test.each([
    ['a missing type', { login_hint: 'a@example.test' }, 'type is required (service_auth)'],
    [
      'an unknown type',
      { type: 'magic', login_hint: 'a@example.test' },
      'unknown registration type',
    ],
    ['a non-string type', { type: 7 }, 'type is required (service_auth)'],
    [
      'a missing login_hint',
      { type: 'service_auth' },
      'login_hint: login_hint is required: the email of the person to claim',
    ],
    [
      'a login_hint that is not an email',
      { type: 'service_auth', login_hint: 'not an email' },
      'login_hint must be an email address',
    ],
    [
      'a login_hint of the wrong type',
      { type: 'service_auth', login_hint: ['a@example.test'] },
      'login_hint: login_hint is required: the email of the person to claim',
    ],
    [
      'a scope of the wrong type',
      { type: 'service_auth', login_hint: 'a@example.test', scope: ['keys:manage'] },
      'scope: Invalid input: expected string, received array',
    ],
    ['a JSON array body', [], 'the body must be a JSON object'],
    ['a JSON string body', 'service_auth', 'the body must be a JSON object'],
  ])('%s is invalid_request', async (_name, body, description) => {
    const response = await postJson(
      identity(),
      typeof body === 'string' ? JSON.stringify(body) : body,
    );
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: 'invalid_request', error_description: description });
  });

  test('malformed JSON is invalid_request', async () => {
    const response = await postJson(identity(), '{"type": "service_auth",');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'invalid_request',
      error_description: 'the body is not valid JSON',
    });
  });

  test('a form body is invalid_request: registration is JSON', async () => {
    const response = await fetch(identity(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'type=service_auth&login_hint=a%40example.test',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'invalid_request',
      error_description: 'the body must be a JSON object (application/json)',
    });
  });

  test('an empty body is invalid_request', async () => {
    const response = await fetch(identity(), { method: 'POST' });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('invalid_request');
  });

  test('an oversized body is refused without a 500', async () => {
    const response = await postJson(identity(), {
      type: 'service_auth',
      login_hint: 'a@example.test',
      pad: 'x'.repeat(20_000),
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({
      error: 'invalid_request',
      error_description: 'the body is too large',
    });
  });

  test('the claim_url sends a browser on to the console claim page', async () => {
    const response = await get(`${t.baseUrl}/agent/identity/claim?claim_attempt_token=cla_abc`);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(
      `${t.consoleUrl}/claim?claim_attempt_token=cla_abc`,
    );
  });
});

describe('with SERVICE_AUTH_ENABLED=false', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await startTestApp({ env: { SERVICE_AUTH_ENABLED: 'false' } });
  });
  afterAll(() => off?.stop());

  test('type service_auth is service_auth_not_enabled, and discovery lists no identity type', async () => {
    const response = await postJson(`${off.baseUrl}/agent/identity`, {
      type: 'service_auth',
      login_hint: 'a@example.test',
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'service_auth_not_enabled',
      error_description: 'registration type service_auth is not available',
    });
    const metadata = await get(`${off.baseUrl}/.well-known/oauth-authorization-server`);
    expect(metadata.body.agent_auth.identity_types_supported).toEqual([]);
  });
});
