/** Console accounts at the HTTP level: the refusals a browser test would be slow to cover. */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { FormClient } from '../helpers/form.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { SIGNIN_MAX_FAILURES: '3' } });
});
afterAll(() => t?.stop());

const password = 'correct horse battery';

async function signUp(email: string) {
  const client = new FormClient(t.baseUrl);
  const { response } = await client.submit('/console/signup', '/console/signup', {
    email,
    password,
  });
  expect(response.status).toBe(303);
  return client;
}

describe('sign-up', () => {
  test('creates an account and signs the person in', async () => {
    const client = await signUp('first@example.test');
    const { response, text } = await client.get('/console/');
    expect(response.status).toBe(200);
    expect(text).toContain('first@example.test');
    expect(text).toMatch(/acc_[A-Za-z0-9_-]{22}/);
  });

  test('a duplicate email is refused with 409, the form shown again with the email kept', async () => {
    await signUp('twice@example.test');
    const client = new FormClient(t.baseUrl);
    const { response, text } = await client.submit('/console/signup', '/console/signup', {
      email: 'Twice@Example.test',
      password,
    });
    expect(response.status).toBe(409);
    expect(text).toContain('role="alert"');
    expect(text).toContain('already exists');
    expect(text).toContain('value="Twice@Example.test"');
  });

  test.each([
    [{ email: 'not-an-email', password }, 'Enter a valid email address'],
    [{ email: 'short@example.test', password: 'short' }, 'at least 10 characters'],
    [{ password }, 'Enter a valid email address'],
    [{ email: `${'x'.repeat(400)}@example.test`, password }, 'email'],
  ])('a malformed form is a 400 with a clear message (%#)', async (fields, message) => {
    const client = new FormClient(t.baseUrl);
    const { response, text } = await client.submit(
      '/console/signup',
      '/console/signup',
      fields as Record<string, string>,
    );
    expect(response.status).toBe(400);
    expect(text).toContain(message);
  });

  test('a form without its CSRF token is refused with 403 and creates nothing', async () => {
    const client = new FormClient(t.baseUrl);
    await client.get('/console/signup');
    const form = new URLSearchParams({ email: 'csrf@example.test', password });
    const { response, text } = await client.post('/console/signup', form.toString());
    expect(response.status).toBe(403);
    expect(text).toContain('csrf_invalid');
    const login = await new FormClient(t.baseUrl).submit('/console/login', '/console/login', {
      email: 'csrf@example.test',
      password,
    });
    expect(login.response.status).toBe(401);
  });

  test('a forged CSRF token is refused with 403', async () => {
    const client = new FormClient(t.baseUrl);
    await client.get('/console/signup');
    const form = new URLSearchParams({
      _csrf: 'forged-token',
      email: 'forged@example.test',
      password,
    });
    const { response } = await client.post('/console/signup', form.toString());
    expect(response.status).toBe(403);
  });

  test('an oversized form is a 413, not a 500', async () => {
    const client = new FormClient(t.baseUrl);
    const { response } = await client.submit('/console/signup', '/console/signup', {
      email: 'big@example.test',
      password: 'p'.repeat(100 * 1024),
    });
    expect(response.status).toBe(413);
  });

  test('hostile strings are shown escaped, never as markup', async () => {
    const client = new FormClient(t.baseUrl);
    const { text } = await client.submit('/console/signup', '/console/signup', {
      email: '"><script>alert(1)</script>',
      password,
    });
    expect(text).not.toContain('<script>alert(1)</script>');
    expect(text).toContain('&quot;&gt;&lt;script&gt;');
  });
});

describe('sign-in', () => {
  test('the right password signs in; sign-out ends the session', async () => {
    await signUp('in-out@example.test');
    const client = new FormClient(t.baseUrl);
    const { response } = await client.submit('/console/login', '/console/login', {
      email: 'in-out@example.test',
      password,
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/console/');
    const dashboard = await client.get('/console/');
    expect(dashboard.response.status).toBe(200);
    const out = await client.submit('/console/', '/console/logout', {});
    expect(out.response.status).toBe(303);
    const after = await client.get('/console/');
    expect(after.response.status).toBe(303);
    expect(after.response.headers.get('location')).toMatch(/^\/console\/login/);
  });

  test('a wrong password and an unknown email get the same 401', async () => {
    await signUp('wrong@example.test');
    const wrong = await new FormClient(t.baseUrl).submit('/console/login', '/console/login', {
      email: 'wrong@example.test',
      password: 'not the password',
    });
    const unknown = await new FormClient(t.baseUrl).submit('/console/login', '/console/login', {
      email: 'nobody@example.test',
      password: 'not the password',
    });
    expect(wrong.response.status).toBe(401);
    expect(unknown.response.status).toBe(401);
    expect(wrong.text).toContain('Email or password is incorrect');
    expect(unknown.text).toContain('Email or password is incorrect');
  });

  test('password guessing is throttled: after the limit even the right password is refused', async () => {
    await signUp('guessed@example.test');
    const attempt = (pw: string) =>
      new FormClient(t.baseUrl).submit('/console/login', '/console/login', {
        email: 'guessed@example.test',
        password: pw,
      });
    expect((await attempt('guess one!!')).response.status).toBe(401);
    expect((await attempt('guess two!!')).response.status).toBe(401);
    const third = await attempt('guess three');
    expect(third.response.status).toBe(429);
    expect(Number(third.response.headers.get('retry-after'))).toBeGreaterThan(0);
    const right = await attempt(password);
    expect(right.response.status).toBe(429);
    expect(right.text).toContain('Too many failed sign-ins');
  });

  test('return_to sends the person back inside the console, never elsewhere', async () => {
    await signUp('return@example.test');
    const to = async (returnTo: string) => {
      const client = new FormClient(t.baseUrl);
      const { response } = await client.submit('/console/login', '/console/login', {
        email: 'return@example.test',
        password,
        return_to: returnTo,
      });
      return response.headers.get('location');
    };
    expect(await to('/console/claim?claim_attempt_token=cla_x')).toBe(
      '/console/claim?claim_attempt_token=cla_x',
    );
    expect(await to('https://evil.example/')).toBe('/console/');
    expect(await to('//evil.example/console/')).toBe('/console/');
    expect(await to('/console/\\evil')).toBe('/console/');
  });

  test('an anonymous visitor to the dashboard is sent to sign in and back', async () => {
    const { response } = await new FormClient(t.baseUrl).get('/console/');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/console/login?return_to=%2Fconsole%2F');
  });

  test('the session cookie is HttpOnly, SameSite and signed; its value is not stored', async () => {
    const client = new FormClient(t.baseUrl);
    await client.get('/console/signup');
    const form = new URLSearchParams({
      _csrf: FormClient.csrf((await client.get('/console/signup')).text),
      email: 'cookie@example.test',
      password,
    });
    const response = await fetch(`${t.baseUrl}/console/signup`, {
      method: 'POST',
      headers: { cookie: client.cookieHeader, 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
      redirect: 'manual',
    });
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('lk_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const token = decodeURIComponent(cookie.split(';')[0]!.slice('lk_session='.length)).split(
      '.',
    )[0]!;
    const rows = await t.app.db.orm.em
      .fork()
      .getConnection()
      .execute<{ token_hash: string }[]>('select token_hash from console_session');
    expect(rows.map((r: { token_hash: string }) => r.token_hash)).not.toContain(token);
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});
