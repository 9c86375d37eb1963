/**
 * Issue 11 §2, forgotten passwords: `{console_url}/forgot` never tells whether an account exists;
 * the mailed `{console_url}/reset?token=…` link works once, for an hour; a reset sets the password,
 * marks the email verified, lifts the sign-in lock and ends every other console session.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { User } from '../../src/entities/user.ts';
import { email, password, person } from '../auth/support.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { FormClient } from '../helpers/form.ts';
import { linkIn } from '../helpers/mail.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { SIGNIN_MAX_FAILURES: '3' } });
});
afterAll(() => t?.stop());
afterEach(() => {
  vi.useRealTimers();
});

const newPassword = 'a brand new password';

async function forgot(client: FormClient, address: string) {
  return client.submit('/console/forgot', '/console/forgot', { email: address });
}

/** Asks for a reset link for `address` and answers its path from the mail. */
async function resetLink(address: string) {
  await forgot(new FormClient(t.baseUrl), address);
  const link = new URL(linkIn(await t.mail!.next(address), 'reset'));
  return link.pathname + link.search;
}

async function setPassword(client: FormClient, path: string, pw: string) {
  const page = await client.get(path);
  const form = new URLSearchParams({
    _csrf: FormClient.csrf(page.text),
    token: new URL(path, t.baseUrl).searchParams.get('token')!,
    password: pw,
  });
  return client.post('/console/reset', form.toString());
}

const signIn = (address: string, pw: string) =>
  new FormClient(t.baseUrl).submit('/console/login', '/console/login', {
    email: address,
    password: pw,
  });

const user = (address: string) =>
  (t.app.db.orm.em.fork() as EntityManager).findOneOrFail(User, { email: address });

describe('asking for a reset link', () => {
  test('the answer is the same for an existing and an unknown email; only the existing one gets mail', async () => {
    const known = email('known');
    await person(t, known);
    const unknown = email('unknown');
    const strip = (text: string) =>
      text
        .replace(/value="[^"]*"/g, '')
        .replaceAll(known, 'X')
        .replaceAll(unknown, 'X');
    const a = await forgot(new FormClient(t.baseUrl), known);
    const b = await forgot(new FormClient(t.baseUrl), unknown);
    expect(a.response.status).toBe(200);
    expect(b.response.status).toBe(200);
    expect(strip(a.text)).toBe(strip(b.text));
    expect(a.text).toContain('If an account uses');

    const mail = await t.mail!.next(known);
    expect(mail.subject).toContain('Reset');
    expect(linkIn(mail, 'reset').startsWith(`${t.consoleUrl}/reset?token=`)).toBe(true);
  });

  test('mail goes only to existing accounts, at most three an hour per email, whatever the answer says', async () => {
    // An app of its own, stopped before counting: stopping waits for the work done after answers.
    const own = await startTestApp();
    const mail = own.mail!;
    try {
      const flooded = email('flooded');
      await person(own, flooded);
      const unknown = email('nobody');
      for (const address of [unknown, flooded, flooded, flooded, flooded, flooded]) {
        const { response, text } = await forgot(new FormClient(own.baseUrl), address);
        expect(response.status).toBe(200);
        expect(text).toContain('If an account uses');
      }
    } finally {
      await own.stop();
    }
    const resets = mail.received.filter((m) => m.subject.includes('Reset'));
    expect(resets.map((m) => m.to[0])).toEqual(Array(3).fill(expect.stringMatching(/^flooded-/)));
  });

  test('a malformed email gets the same answer, not an error', async () => {
    const { response, text } = await forgot(new FormClient(t.baseUrl), 'not an email');
    expect(response.status).toBe(200);
    expect(text).toContain('If an account uses');
  });
});

describe('the reset link', () => {
  test('sets the new password once: the old password and the used link stop working', async () => {
    const address = email('resets');
    await person(t, address);
    const path = await resetLink(address);
    const page = await new FormClient(t.baseUrl).get(path);
    expect(page.text).toContain('<label for="new-password">New password</label>');
    expect(page.text).toMatch(/<button type="submit">Set password<\/button>/);

    const done = await setPassword(new FormClient(t.baseUrl), path, newPassword);
    expect(done.response.status).toBe(303);
    expect(done.response.headers.get('location')).toBe('/console/?notice=password_changed');
    expect((await signIn(address, password)).response.status).toBe(401);
    expect((await signIn(address, newPassword)).response.status).toBe(303);

    const again = await new FormClient(t.baseUrl).get(path);
    expect(again.response.status).toBe(400);
    expect(again.text).toContain('link_invalid');
  });

  test('ends every other console session; the browser that reset stays signed in', async () => {
    const address = email('sessions');
    const first = await person(t, address);
    const second = new FormClient(t.baseUrl);
    expect(
      (await second.submit('/console/login', '/console/login', { email: address, password }))
        .response.status,
    ).toBe(303);
    expect((await first.get('/console/')).response.status).toBe(200);
    expect((await second.get('/console/')).response.status).toBe(200);

    // The second browser, signed in, resets the password from the mailed link.
    await second.submit('/console/forgot', '/console/forgot', { email: address });
    const link = new URL(linkIn(await t.mail!.next(address), 'reset'));
    const done = await setPassword(second, link.pathname + link.search, newPassword);
    expect(done.response.status).toBe(303);

    expect((await second.get('/console/')).response.status).toBe(200);
    const signedOut = await first.get('/console/');
    expect(signedOut.response.status).toBe(303);
    expect(signedOut.response.headers.get('location')).toMatch(/^\/console\/login/);
  });

  test('from a browser that is not signed in, ends every session and signs that browser in', async () => {
    const address = email('anywhere');
    const old = await person(t, address);
    const fresh = new FormClient(t.baseUrl);
    const done = await setPassword(fresh, await resetLink(address), newPassword);
    expect(done.response.status).toBe(303);
    expect((await old.get('/console/')).response.status).toBe(303);
    const dashboard = await fresh.get('/console/?notice=password_changed');
    expect(dashboard.response.status).toBe(200);
    expect(dashboard.text).toContain(
      'Every other browser signed in to your account was signed out',
    );
  });

  test('marks an unverified email verified', async () => {
    const address = email('unverified');
    const client = new FormClient(t.baseUrl);
    await client.submit('/console/signup', '/console/signup', { email: address, password });
    await t.mail!.next(address); // the verification mail, left unopened
    expect((await user(address)).emailVerifiedAt).toBeNull();
    await setPassword(new FormClient(t.baseUrl), await resetLink(address), newPassword);
    expect((await user(address)).emailVerifiedAt).toBeInstanceOf(Date);
  });

  test('lifts the sign-in lock of the account', async () => {
    const address = email('locked');
    await person(t, address);
    for (const guess of ['guess one!!', 'guess two!!', 'guess three']) await signIn(address, guess);
    expect((await signIn(address, password)).response.status).toBe(429);
    await setPassword(new FormClient(t.baseUrl), await resetLink(address), newPassword);
    expect((await signIn(address, newPassword)).response.status).toBe(303);
  });

  test('a too-short password shows the form again and leaves the link usable', async () => {
    const address = email('short');
    await person(t, address);
    const path = await resetLink(address);
    const refused = await setPassword(new FormClient(t.baseUrl), path, 'short');
    expect(refused.response.status).toBe(400);
    expect(refused.text).toContain('at least 10 characters');
    expect(refused.text).toContain('Set password');
    expect((await setPassword(new FormClient(t.baseUrl), path, newPassword)).response.status).toBe(
      303,
    );
  });

  test('a link older than one hour is refused and changes nothing', async () => {
    const address = email('stale');
    await person(t, address);
    const path = await resetLink(address);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3600 * 1000 + 1000 });
    const page = await new FormClient(t.baseUrl).get(path);
    expect(page.response.status).toBe(400);
    vi.useRealTimers();
    // The form was loaded before the hour ran out; the submission comes after.
    const client = new FormClient(t.baseUrl);
    const form = await client.get(path);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 3600 * 1000 + 1000 });
    const late = await client.post(
      '/console/reset',
      new URLSearchParams({
        _csrf: FormClient.csrf(form.text),
        token: new URL(path, t.baseUrl).searchParams.get('token')!,
        password: newPassword,
      }).toString(),
    );
    expect(late.response.status).toBe(400);
    expect(late.text).toContain('link_invalid');
    vi.useRealTimers();
    expect((await signIn(address, password)).response.status).toBe(303);
  });

  test('two submissions of one link at once: exactly one sets its password', async () => {
    const address = email('twice');
    await person(t, address);
    const path = await resetLink(address);
    const clients = [new FormClient(t.baseUrl), new FormClient(t.baseUrl)];
    const forms = await Promise.all(clients.map((c) => c.get(path)));
    const answers = await Promise.all(
      clients.map((c, i) =>
        c.post(
          '/console/reset',
          new URLSearchParams({
            _csrf: FormClient.csrf(forms[i]!.text),
            token: new URL(path, t.baseUrl).searchParams.get('token')!,
            password: `${newPassword} ${i}`,
          }).toString(),
        ),
      ),
    );
    expect(answers.map((a) => a.response.status).sort()).toEqual([303, 400]);
  });

  test.each([
    ['no token', '/console/reset'],
    ['a made-up token', '/console/reset?token=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'],
  ])('%s is a 400 link_invalid page', async (_name, path) => {
    const { response, text } = await new FormClient(t.baseUrl).get(path);
    expect(response.status).toBe(400);
    expect(text).toContain('link_invalid');
  });

  test('a form posted with a made-up token is a 400 link_invalid page and changes nothing', async () => {
    const client = new FormClient(t.baseUrl);
    const page = await client.get('/console/forgot');
    const { response, text } = await client.post(
      '/console/reset',
      new URLSearchParams({
        _csrf: FormClient.csrf(page.text),
        token: 'x'.repeat(43),
        password: newPassword,
      }).toString(),
    );
    expect(response.status).toBe(400);
    expect(text).toContain('link_invalid');
  });
});
