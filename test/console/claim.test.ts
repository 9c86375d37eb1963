/**
 * The console claim page at the HTTP level: who may claim, what the page says, how wrong codes
 * are counted and locked (RFC 8628 §5.1), and that nothing is claimed on any refusal. The
 * browser walk-through is in test/auth/ceremony.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  attemptToken,
  claimPath,
  email,
  password,
  person,
  poll,
  register,
  submitClaim,
} from '../auth/support.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { FormClient } from '../helpers/form.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { CLAIM_POLL_INTERVAL: '1' } });
});
afterAll(() => t?.stop());

const registrationRow = async (id: string) =>
  (
    await t.app.db.orm.em
      .fork()
      .getConnection()
      .execute(
        'select status, account_id, failed_attempts, claimed_by_id from agent_registration where id = ?',
        [id],
      )
  )[0];

describe('signing in', () => {
  test('an anonymous visitor is sent to sign in and brought back to the claim', async () => {
    const address = email('anon');
    const registration = await register(t, address);
    const visitor = new FormClient(t.baseUrl);
    const { response } = await visitor.get(claimPath(registration));
    expect(response.status).toBe(303);
    const location = response.headers.get('location')!;
    expect(location).toBe(
      `/console/login?return_to=${encodeURIComponent(claimPath(registration))}`,
    );

    await person(t, address); // the account exists; now sign in through the redirect
    const returnTo = new URL(location, t.baseUrl).searchParams.get('return_to')!;
    const signedIn = await visitor.submit(location, '/console/login', {
      email: address,
      password,
      return_to: returnTo,
    });
    expect(signedIn.response.headers.get('location')).toBe(claimPath(registration));
    const page = await visitor.get(claimPath(registration));
    expect(page.response.status).toBe(200);
    expect(page.text).toContain('<label for="code">Code</label>');
    expect(page.text).toMatch(/<button type="submit">Claim<\/button>/);
  });
});

describe('the page', () => {
  test('says clearly what the person authorises: the account and each scope', async () => {
    const address = email('explain');
    const registration = await register(t, address, { scope: 'keys:manage' });
    const client = await person(t, address);
    const page = await client.get(claimPath(registration));
    expect(page.text).toContain(`${address}&#39;s account`);
    for (const scope of [
      'sessions:write',
      'sessions:read',
      'otp:read',
      'usage:read',
      'keys:manage',
    ]) {
      expect(page.text).toContain(`<code>${scope}</code>`);
    }
    expect(page.text).toContain('each session opened is billable');
    expect(page.text).toContain('create and delete API keys');
    expect(page.text).not.toContain(registration.claim.user_code);
  });

  test('an unknown link is a 404 page', async () => {
    const client = await person(t, email('unknown-link'));
    const page = await client.get(
      '/console/claim?claim_attempt_token=cla_doesnotexistdoesnotexist00',
    );
    expect(page.response.status).toBe(404);
    expect(page.text).toContain('This claim link is not valid.');
  });
});

describe('claiming', () => {
  test('the right person with the right code claims: the registration joins their account', async () => {
    const address = email('right');
    const registration = await register(t, address);
    const client = await person(t, address);
    const claimed = await submitClaim(client, registration, registration.claim.user_code);
    expect(claimed.response.status).toBe(200);
    expect(claimed.text).toContain('Agent connected');
    const row = await registrationRow(registration.registration_id);
    expect(row.status).toBe('claimed');
    const dashboard = await client.get('/console/');
    expect(dashboard.text).toContain(row.account_id);
    expect(row.claimed_by_id).toMatch(/^usr_/);
    // The page now says it is done.
    const again = await client.get(claimPath(registration));
    expect(again.response.status).toBe(409);
    expect(again.text).toContain('claim_closed');
  });

  test.each([
    ['lower case without the dash', (code: string) => code.replace('-', '').toLowerCase()],
    [
      'with spaces around and inside',
      (code: string) => `  ${code.slice(0, 2)} ${code.slice(2).replace('-', ' ')}  `,
    ],
    ['with a dot as separator', (code: string) => code.replace('-', '.')],
  ])('the code may be typed %s', async (_name, typed) => {
    const address = email('typed');
    const registration = await register(t, address);
    const client = await person(t, address);
    const claimed = await submitClaim(client, registration, typed(registration.claim.user_code));
    expect(claimed.response.status).toBe(200);
    expect(claimed.text).toContain('Agent connected');
  });

  test('a signed-in person with another email sees an error, and nothing is claimed or counted', async () => {
    const registration = await register(t, email('owner'));
    const other = await person(t, email('other'));
    const page = await other.get(claimPath(registration));
    expect(page.response.status).toBe(403);
    expect(page.text).toContain('claim_wrong_user');
    expect(page.text).toContain('role="alert"');
    expect(page.text).not.toContain('name="code"');
    const attempt = await submitClaim(other, registration, registration.claim.user_code);
    expect(attempt.response.status).toBe(403);
    expect(attempt.text).toContain('nothing was claimed');
    const row = await registrationRow(registration.registration_id);
    expect(row).toMatchObject({ status: 'pending', account_id: null, failed_attempts: 0 });
    expect((await poll(t, registration.claim_token)).body.error).toBe('authorization_pending');
  });

  test('wrong codes are counted and the fifth locks the claim', async () => {
    const address = email('guess');
    const registration = await register(t, address);
    const client = await person(t, address);
    for (let left = 4; left >= 1; left -= 1) {
      const wrong = await submitClaim(client, registration, 'ZZZZ-ZZZZ');
      expect(wrong.response.status).toBe(400);
      expect(wrong.text).toContain(
        `That code is not right. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`,
      );
      expect(wrong.text).toContain('name="code"');
    }
    const fifth = await submitClaim(client, registration, 'ZZZZ-ZZZZ');
    expect(fifth.response.status).toBe(410);
    expect(fifth.text).toContain('Too many wrong codes');
    const right = await submitClaim(client, registration, registration.claim.user_code);
    expect(right.response.status).toBe(410);
    expect(await registrationRow(registration.registration_id)).toMatchObject({
      status: 'expired',
      failed_attempts: 5,
      account_id: null,
    });
  });

  test('racing guesses cannot exceed five attempts', async () => {
    const address = email('race-guess');
    const registration = await register(t, address);
    const client = await person(t, address);
    const page = await client.get(claimPath(registration));
    const csrf = FormClient.csrf(page.text);
    const guesses = Array.from({ length: 12 }, (_, i) =>
      client.post(
        '/console/claim',
        new URLSearchParams({
          _csrf: csrf,
          claim_attempt_token: attemptToken(registration),
          code: `BBBB-BBB${'BCDFGHJKLMNP'[i]}`,
        }).toString(),
      ),
    );
    await Promise.all(guesses);
    const row = await registrationRow(registration.registration_id);
    expect(row.status).toBe('expired');
    expect(row.failed_attempts).toBe(5);
    expect(
      (await submitClaim(client, registration, registration.claim.user_code)).response.status,
    ).toBe(410);
  });

  test('two tabs claiming at once: exactly one succeeds', async () => {
    const address = email('tabs');
    const registration = await register(t, address);
    const client = await person(t, address);
    const page = await client.get(claimPath(registration));
    const csrf = FormClient.csrf(page.text);
    const form = new URLSearchParams({
      _csrf: csrf,
      claim_attempt_token: attemptToken(registration),
      code: registration.claim.user_code,
    }).toString();
    const results = await Promise.all([
      client.post('/console/claim', form),
      client.post('/console/claim', form),
    ]);
    expect(results.map((r) => r.response.status).sort()).toEqual([200, 409]);
  });

  test('a claim without its CSRF token is refused and claims nothing', async () => {
    const address = email('csrf');
    const registration = await register(t, address);
    const client = await person(t, address);
    await client.get(claimPath(registration));
    const form = new URLSearchParams({
      claim_attempt_token: attemptToken(registration),
      code: registration.claim.user_code,
    });
    const response = await client.post('/console/claim', form.toString());
    expect(response.response.status).toBe(403);
    expect(response.text).toContain('csrf_invalid');
    expect((await registrationRow(registration.registration_id)).status).toBe('pending');
  });

  test('hostile input is refused cleanly and shown escaped', async () => {
    const address = email('hostile');
    const registration = await register(t, address);
    const client = await person(t, address);
    for (const code of ['<script>alert(1)</script>', 'x'.repeat(5000), '\u0000\u202e', '']) {
      const response = await submitClaim(client, registration, code);
      expect(response.response.status).toBe(400);
      expect(response.text).not.toContain('<script>alert(1)</script>');
    }
    const tampered = await client.post(
      '/console/claim',
      new URLSearchParams({
        _csrf: FormClient.csrf((await client.get(claimPath(registration))).text),
        claim_attempt_token: '"><img src=x>',
        code: 'BBBB-BBBB',
      }).toString(),
    );
    expect(tampered.response.status).toBe(404);
    expect(tampered.text).not.toContain('<img src=x>');
  });
});
