/**
 * The mailed-link pages as a person uses them, in headless Chromium, with mail delivered to a real
 * SMTP receiver: sign up → verify, forgot → reset (two browsers: the other one is signed out), and
 * a social sign-in that may join a password account only once its email is verified. Fields are
 * found by their accessible names as decisions.md fixes them. Screenshots go to
 * $LATCHKEY_SCREENSHOTS when set, for a person to look at.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { linkIn } from '../helpers/mail.ts';
import { startUpstreamIdp, type UpstreamIdp } from '../helpers/upstream-idp.ts';

let t: TestApp;
let idp: UpstreamIdp;
let browser: Browser;

beforeAll(async () => {
  const port = await freePort();
  idp = await startUpstreamIdp([`http://127.0.0.1:${port}/console/oidc/1/callback`]);
  t = await startTestApp({
    port,
    env: {
      OIDC_1_NAME: 'Example ID',
      OIDC_1_ISSUER: idp.issuer,
      OIDC_1_CLIENT_ID: idp.clientId,
      OIDC_1_CLIENT_SECRET: idp.clientSecret,
    },
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await idp?.stop();
});

const newPage = async (): Promise<Page> => (await browser.newContext()).newPage();

async function shot(page: Page, name: string) {
  const dir = process.env.LATCHKEY_SCREENSHOTS;
  if (dir) await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

async function signUp(page: Page, address: string, pw = 'a long enough password') {
  await page.goto(`${t.consoleUrl}/signup`);
  await page.getByLabel('Email').fill(address);
  await page.getByLabel('Password').fill(pw);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect.poll(() => page.url()).toBe(`${t.consoleUrl}/`);
}

describe('verifying an email in a browser', () => {
  test('sign up, see the request to verify, resend, open the mailed link: verified', async () => {
    const page = await newPage();
    await signUp(page, 'verify.me@example.test');
    await t.mail!.next('verify.me@example.test'); // the first mail; the person asks for another
    const request = page.getByRole('region', { name: 'Please verify your email address' });
    expect(await request.textContent()).toContain('verify');
    await shot(page, 'dashboard-unverified');

    await page.getByRole('button', { name: 'Resend verification email' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toContain('We sent a new verification email');
    await page.goto(linkIn(await t.mail!.next('verify.me@example.test'), 'verify'));
    await expect.poll(() => page.getByRole('heading', { name: 'Email verified' }).count()).toBe(1);
    await shot(page, 'email-verified');

    await page.getByRole('link', { name: 'Go to the dashboard' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Dashboard' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Resend verification email' }).count()).toBe(0);
    expect(await page.getByText('(verified)').count()).toBe(1);
    await page.context().close();
  });
});

describe('resetting a password in a browser', () => {
  test('forgot → mailed link → new password: this browser is signed in, the other one is signed out', async () => {
    const address = 'forgetful@example.test';
    const other = await newPage();
    await signUp(other, address, 'the old password');
    await t.mail!.next(address);

    const page = await newPage();
    await page.goto(`${t.consoleUrl}/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await expect.poll(() => page.url()).toBe(`${t.consoleUrl}/forgot`);
    await shot(page, 'forgot');
    await page.getByLabel('Email').fill(address);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('If an account uses');
    await shot(page, 'forgot-sent');

    await page.goto(linkIn(await t.mail!.next(address), 'reset'));
    await shot(page, 'reset');
    await page.getByLabel('New password').fill('the new password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect.poll(() => page.url()).toBe(`${t.consoleUrl}/?notice=password_changed`);
    expect(await page.getByRole('status').textContent()).toContain('Your new password is set');
    expect(await page.getByText('Signed in as').textContent()).toContain(address);
    await shot(page, 'dashboard-after-reset');

    await other.reload();
    await expect.poll(() => new URL(other.url()).pathname).toBe('/console/login');

    await other.getByLabel('Email').fill(address);
    await other.getByLabel('Password').fill('the new password');
    await other.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => other.url()).toBe(`${t.consoleUrl}/`);
    await page.context().close();
    await other.context().close();
  });
});

/** Starts social sign-in and passes the upstream's own development login and consent pages. */
async function continueWithUpstream(page: Page, login: string) {
  await page.goto(`${t.consoleUrl}/login`);
  await page.getByRole('button', { name: 'Continue with Example ID' }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything');
  await page.locator('button[type="submit"]').click();
  await page.locator('button[type="submit"]').click();
}

describe('social sign-in onto a password account', () => {
  test('is refused while the account is unverified (nothing linked), and joins it once verified', async () => {
    const address = 'pre.hijack@example.test';
    // Someone signed up with this address first and never verified it.
    const squatter = await newPage();
    await signUp(squatter, address, 'the squatters password');
    const verification = await t.mail!.next(address);

    const owner = await newPage();
    await continueWithUpstream(owner, address);
    await expect
      .poll(() => owner.getByRole('alert').textContent())
      .toContain('has not been verified');
    await shot(owner, 'social-refused');
    const linked = async () =>
      (
        await t.app.db.orm.em
          .fork()
          .getConnection()
          .execute(
            'select count(*)::int as n from social_identity s join app_user u on u.id = s.user_id where u.email = ?',
            [address],
          )
      )[0].n;
    expect(await linked()).toBe(0);

    // Once the address is verified (here by the link in its mail), the provider may join it.
    await owner.goto(linkIn(verification, 'verify'));
    await owner.context().close();
    // A fresh browser, so the upstream shows its login page again.
    const again = await newPage();
    await continueWithUpstream(again, address);
    await expect.poll(() => again.url()).toBe(`${t.consoleUrl}/`);
    expect(await again.getByText('Signed in as').textContent()).toContain(address);
    expect(await linked()).toBe(1);
    await again.context().close();
    await squatter.context().close();
  });
});
