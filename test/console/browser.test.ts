/**
 * The console as a person uses it, in headless Chromium: sign up, sign out, sign in, and sign in
 * through a configured OpenID provider (a real oidc-provider instance started here), locating
 * every field by its accessible label as decisions.md fixes them.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freePort, startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { startUpstreamIdp, type UpstreamIdp } from '../helpers/upstream-idp.ts';

let t: TestApp;
let idp: UpstreamIdp;
let browser: Browser;

beforeAll(async () => {
  // The console's callback URL must be known to the upstream before the console starts.
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  idp = await startUpstreamIdp([`${base}/console/oidc/1/callback`]);
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

async function newPage(): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

/** Starts social sign-in and passes the upstream's own development login and consent pages. */
async function continueWithUpstream(page: Page, login: string) {
  await page.goto(`${t.consoleUrl}/login`);
  await page.getByRole('button', { name: 'Continue with Example ID' }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('anything');
  await page.locator('button[type="submit"]').click();
  await page.locator('button[type="submit"]').click();
}

describe('console accounts in a browser', () => {
  test('a person signs up, signs out and signs in again', async () => {
    const page = await newPage();
    await page.goto(`${t.consoleUrl}/signup`);
    await page.getByLabel('Email').fill('person@example.test');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.url()).toBe(`${t.consoleUrl}/`);
    await expect.poll(() => page.getByRole('heading', { name: 'Dashboard' }).count()).toBe(1);
    expect(await page.getByText('Signed in as').textContent()).toContain('person@example.test');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.url()).toBe(`${t.consoleUrl}/login`);

    await page.getByLabel('Email').fill('person@example.test');
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.url()).toBe(`${t.consoleUrl}/`);
    await page.context().close();
  });

  test('a wrong password shows an error and keeps the email', async () => {
    const page = await newPage();
    await page.goto(`${t.consoleUrl}/login`);
    await page.getByLabel('Email').fill('nobody@example.test');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('Email or password is incorrect');
    expect(await page.getByLabel('Email').inputValue()).toBe('nobody@example.test');
    await page.context().close();
  });

  test('a person signs in with the configured OpenID provider', async () => {
    const page = await newPage();
    await continueWithUpstream(page, 'social.person@example.test');
    await expect.poll(() => page.url()).toBe(`${t.consoleUrl}/`);
    expect(await page.getByText('Signed in as').textContent()).toContain(
      'social.person@example.test',
    );
    await page.context().close();
  });

  test('an upstream identity without a verified email is refused', async () => {
    const page = await newPage();
    await continueWithUpstream(page, 'unverified@example.test');
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('did not confirm an email');
    await page.context().close();
  });
});
