/**
 * Issue 11 §2, verified email: a password sign-up is mailed a single-use link (through a real SMTP
 * receiver), the dashboard asks to verify until it is used, and an unverified account can neither
 * claim an agent nor create an API key (`requireVerifiedAccount`).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { requireVerifiedAccount } from '../../src/domain/accounts/verification.ts';
import { sweepOnce } from '../../src/domain/sweeper.ts';
import { User } from '../../src/entities/user.ts';
import { isAppError } from '../../src/errors/index.ts';
import { email, password, register, submitClaim } from '../auth/support.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { FormClient } from '../helpers/form.ts';
import { linkIn } from '../helpers/mail.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { MAIL_FROM: 'Latchkey Test <accounts@latchkey.test>' } });
});
afterAll(() => t?.stop());
afterEach(() => {
  vi.useRealTimers();
});

/** Signs up without verifying; answers the signed-in client and the link mailed to the address. */
async function signUpUnverified(address: string) {
  const client = new FormClient(t.baseUrl);
  const { response } = await client.submit('/console/signup', '/console/signup', {
    email: address,
    password,
  });
  expect(response.status).toBe(303);
  const mail = await t.mail!.next(address);
  return { client, mail, link: new URL(linkIn(mail, 'verify')) };
}

const pathOf = (link: URL) => link.pathname + link.search;

const userRow = async (address: string) =>
  (t.app.db.orm.em.fork() as EntityManager).findOneOrFail(User, { email: address });

describe('the verification mail', () => {
  test('a sign-up is mailed from MAIL_FROM a {console_url}/verify?token=… link that verifies the address once', async () => {
    const address = email('mailed');
    const { client, mail, link } = await signUpUnverified(address);
    expect(mail.from).toBe('"Latchkey Test" <accounts@latchkey.test>');
    expect(mail.to).toEqual([address]);
    expect(link.href.startsWith(`${t.consoleUrl}/verify?token=`)).toBe(true);
    expect((await userRow(address)).emailVerifiedAt).toBeNull();

    const first = await client.get(pathOf(link));
    expect(first.response.status).toBe(200);
    expect(first.text).toContain('Email verified');
    expect((await userRow(address)).emailVerifiedAt).toBeInstanceOf(Date);

    const again = await client.get(pathOf(link));
    expect(again.response.status).toBe(400);
    expect(again.text).toContain('link_invalid');
  });

  test('the link works in a browser that is not signed in (mail read on another device)', async () => {
    const address = email('elsewhere');
    const { link } = await signUpUnverified(address);
    const elsewhere = await new FormClient(t.baseUrl).get(pathOf(link));
    expect(elsewhere.response.status).toBe(200);
    expect((await userRow(address)).emailVerifiedAt).toBeInstanceOf(Date);
  });

  test('only a hash of the token is stored', async () => {
    const { link } = await signUpUnverified(email('hashed'));
    const token = link.searchParams.get('token')!;
    const rows = await t.app.db.orm.em.fork().getConnection().execute('select * from email_token');
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  test('the same link opened twice at once verifies exactly once', async () => {
    const { link } = await signUpUnverified(email('racing'));
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => fetch(link.href, { redirect: 'manual' })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
  });

  test('a link older than 24 hours is refused and verifies nothing', async () => {
    const address = email('late');
    const { client, link } = await signUpUnverified(address);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 24 * 3600 * 1000 + 1000 });
    const late = await client.get(pathOf(link));
    expect(late.response.status).toBe(400);
    expect(late.text).toContain('link_invalid');
    expect((await userRow(address)).emailVerifiedAt).toBeNull();
  });

  test.each([
    ['no token', '/console/verify'],
    ['a made-up token', '/console/verify?token=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
    ['an over-long token', `/console/verify?token=${'a'.repeat(5000)}`],
    ['a repeated token', '/console/verify?token=a&token=b'],
  ])('%s is a 400 link_invalid page, never a 500', async (_name, path) => {
    const { response, text } = await new FormClient(t.baseUrl).get(path);
    expect(response.status).toBe(400);
    expect(text).toContain('link_invalid');
  });
});

describe('the dashboard of an unverified account', () => {
  test('asks to verify and offers "Resend verification email", which mails a new working link', async () => {
    const address = email('resend');
    const { client } = await signUpUnverified(address);
    const dashboard = await client.get('/console/');
    expect(dashboard.text).toContain('verify your email');
    expect(dashboard.text).toMatch(/<button type="submit">Resend verification email<\/button>/);

    const resent = await client.submit('/console/', '/console/verify/resend', {});
    expect(resent.response.status).toBe(303);
    expect(resent.response.headers.get('location')).toBe('/console/?notice=verification_sent');
    const link = new URL(linkIn(await t.mail!.next(address), 'verify'));
    expect((await client.get(pathOf(link))).response.status).toBe(200);

    const after = await client.get('/console/');
    expect(after.text).not.toContain('Resend verification email');
    expect(after.text).toContain('(verified)');
    // Asking again once verified sends nothing and says nothing was sent.
    const late = await client.post(
      '/console/verify/resend',
      new URLSearchParams({ _csrf: FormClient.csrf(after.text) }).toString(),
    );
    expect(late.response.headers.get('location')).toBe('/console/');
  });

  test('resending is limited per person: the sixth within an hour is a 429 with Retry-After', async () => {
    const address = email('flood');
    const { client } = await signUpUnverified(address);
    for (let i = 0; i < 5; i += 1) {
      const { response } = await client.submit('/console/', '/console/verify/resend', {});
      expect(response.status).toBe(303);
    }
    const refused = await client.submit('/console/', '/console/verify/resend', {});
    expect(refused.response.status).toBe(429);
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.text).toContain('Too many verification emails');
  });
});

describe('an unverified account', () => {
  test('cannot claim an agent: the page and the form refuse with email_unverified, and nothing is claimed', async () => {
    const address = email('claimer');
    const registration = await register(t, address);
    const { client, link } = await signUpUnverified(address);
    const url = new URL(registration.claim.verification_uri);
    const page = await client.get(url.pathname + url.search);
    expect(page.response.status).toBe(403);
    expect(page.text).toContain('email_unverified');
    expect(page.text).toContain('Verify your email address first');

    const refused = await submitClaimUnverified(client, registration);
    expect(refused.response.status).toBe(403);
    expect(refused.text).toContain('email_unverified');
    const [row] = await t.app.db.orm.em
      .fork()
      .getConnection()
      .execute('select status, failed_attempts from agent_registration where id = ?', [
        registration.registration_id,
      ]);
    expect(row).toMatchObject({ status: 'pending', failed_attempts: 0 });

    await client.get(pathOf(link));
    const claimed = await submitClaim(client, registration, registration.claim.user_code);
    expect(claimed.response.status).toBe(200);
    expect(claimed.text).toContain('Agent connected');
  });

  test('cannot create an API key in the console until verified', async () => {
    const address = email('keys');
    const { client, link } = await signUpUnverified(address);
    const page = await client.get('/console/api-keys');
    expect(page.text).toContain('Verify your email address first');
    const refused = await client.submit('/console/api-keys', '/console/api-keys', {
      name: 'too early',
      scopes: 'sessions:read',
    });
    expect(refused.response.status).toBe(403);
    expect(refused.text).toContain('Verify your email address first');
    const count = async () =>
      (
        await t.app.db.orm.em
          .fork()
          .getConnection()
          .execute('select count(*)::int as n from api_key where name = ?', ['too early'])
      )[0].n;
    expect(await count()).toBe(0);

    await client.get(pathOf(link));
    const created = await client.submit('/console/api-keys', '/console/api-keys', {
      name: 'too early',
      scopes: 'sessions:read',
    });
    expect(created.response.status).toBe(201);
    expect(await count()).toBe(1);
  });

  test('requireVerifiedAccount refuses an account id until one of its users is verified', async () => {
    const address = email('gate');
    const { link, client } = await signUpUnverified(address);
    const accountId = (await userRow(address)).account.id;
    const em = t.app.db.orm.em.fork() as EntityManager;
    const outcome = await requireVerifiedAccount(em, { accountId }).catch((error) => error);
    expect(isAppError(outcome) && outcome.code).toBe('email_unverified');
    expect(isAppError(outcome) && outcome.status).toBe(403);
    await client.get(pathOf(link));
    await expect(
      requireVerifiedAccount(t.app.db.orm.em.fork() as EntityManager, { accountId }),
    ).resolves.toBeUndefined();
  });
});

/** Posts the claim form directly (the page itself refuses to show it while unverified). */
async function submitClaimUnverified(
  client: FormClient,
  registration: Awaited<ReturnType<typeof register>>,
) {
  const form = new URLSearchParams({
    _csrf: FormClient.csrf((await client.get('/console/')).text),
    claim_attempt_token: new URL(registration.claim.verification_uri).searchParams.get(
      'claim_attempt_token',
    )!,
    code: registration.claim.user_code,
  });
  return client.post('/console/claim', form.toString());
}

describe('without MAIL_SMTP_URL', () => {
  test('the mail is written to the log as one line with its link, and the link works', async () => {
    const lines: string[] = [];
    const bare = await startTestApp({ env: { MAIL_SMTP_URL: '' }, logLines: lines });
    try {
      const client = new FormClient(bare.baseUrl);
      const address = 'newcomer@example.test';
      await client.submit('/console/signup', '/console/signup', { email: address, password });
      const mailLines = lines
        .map((line) => JSON.parse(line))
        .filter((entry) => entry.mail?.to === address);
      expect(mailLines).toHaveLength(1);
      const link = new URL(mailLines[0].mail.link);
      expect(link.href.startsWith(`${bare.consoleUrl}/verify?token=`)).toBe(true);
      expect((await client.get(link.pathname + link.search)).response.status).toBe(200);
      expect(lines.some((line) => line.includes('MAIL_SMTP_URL is unset'))).toBe(true);
    } finally {
      await bare.stop();
    }
  });
});

describe('the sweeper', () => {
  test('removes expired links and ended throttle windows, and keeps live ones', async () => {
    await signUpUnverified(email('swept'));
    const rows = async (sql: string) =>
      (await t.app.db.orm.em.fork().getConnection().execute(sql))[0].n as number;
    const links = () => rows('select count(*)::int as n from email_token');
    const windows = () => rows('select count(*)::int as n from throttle_counter');
    const before = { links: await links(), windows: await windows() };
    expect(before.links).toBeGreaterThan(0);
    expect(before.windows).toBeGreaterThan(0);

    const soon = await sweepOnce({ ...t.app.challenges, clock: () => new Date() });
    expect(soon.accounts).toEqual({ counters: 0, links: 0 });

    const later = new Date(Date.now() + 25 * 3600 * 1000);
    const swept = await sweepOnce({ ...t.app.challenges, clock: () => later });
    expect(swept.accounts.links).toBe(before.links);
    expect(swept.accounts.counters).toBe(before.windows);
    expect(await links()).toBe(0);
    expect(await windows()).toBe(0);
  });
});
