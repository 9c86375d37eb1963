/**
 * Issue 20, the console's authenticators page in headless Chromium: a person signs up, is refused
 * until the email is verified, then adds an authenticator from its `otpauth URI` and `Target`,
 * sees it listed (target, label, issuer; never the secret) and deletes it with its `Delete`
 * button. Another account's authenticator cannot be deleted from the console (404).
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { rest } from '../helpers/faces.ts';
import { linkIn } from '../helpers/mail.ts';
import { apiKey } from '../helpers/principals.ts';

let t: TestApp;
let browser: Browser;
const SECRET = 'KRUGS4ZANFZSAYJAONSWG4TFOQQGC5DIMVXHI2LD';
const URI = `otpauth://totp/Shop%20Inc:agent%40example.com?secret=${SECRET}&issuer=Shop%20Inc`;

beforeAll(async () => {
  t = await startTestApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

async function signUp(address: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${t.consoleUrl}/signup`);
  await page.getByLabel('Email').fill(address);
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect.poll(() => page.url()).toBe(`${t.consoleUrl}/`);
  return page;
}

async function verify(page: Page, address: string) {
  const mail = await t.mail!.next(address);
  await page.goto(linkIn(mail, 'verify'));
  await expect.poll(() => page.getByText('Email verified').count()).toBeGreaterThan(0);
}

async function add(page: Page, uri: string, target: string) {
  await page.goto(`${t.consoleUrl}/authenticators`);
  await page.getByLabel('otpauth URI').fill(uri);
  await page.getByLabel('Target').fill(target);
  await page.getByRole('button', { name: 'Add authenticator' }).click();
}

const accountOf = async (address: string) => {
  const [row] = await t.app.db.orm.em
    .fork()
    .execute<{ account_id: string }[]>('select account_id from app_user where email = ?', [
      address,
    ]);
  return row!.account_id;
};

test('a verified person adds an authenticator from its otpauth URI, sees it listed without its secret, and deletes it', async () => {
  const address = 'totp-person@example.test';
  const page = await signUp(address);

  // Before the email is verified, nothing is stored.
  await add(page, URI, 'shop.example');
  await expect.poll(() => page.getByRole('alert').textContent()).toContain('email_unverified');
  const key = await apiKey(t, await accountOf(address), ['authenticators:manage']);
  expect((await rest(t, 'GET', '/v1/authenticators', key)).body.authenticators).toEqual([]);

  await verify(page, address);
  // A bad URI is refused naming the field, and the target typed is kept.
  await add(page, 'otpauth://hotp/x?secret=JBSWY3DPEHPK3PXP&counter=1', 'shop.example');
  await expect.poll(() => page.getByRole('alert').textContent()).toContain('otpauth_uri');
  expect(await page.getByLabel('Target').inputValue()).toBe('shop.example');

  await add(page, URI, 'https://shop.example/login');
  await expect.poll(() => page.getByRole('status').textContent()).toContain('added');
  const row = page.getByRole('row', { name: /shop\.example/ });
  await expect.poll(() => row.count()).toBe(1);
  const text = (await row.textContent()) ?? '';
  expect(text).toContain('https://shop.example/login');
  expect(text).toContain('agent@example.com');
  expect(text).toContain('Shop Inc');
  expect(await page.content()).not.toContain(SECRET);
  // LATCHKEY_SCREENSHOTS=docs/console keeps the page's picture (as the other console tests do).
  const shots = process.env.LATCHKEY_SCREENSHOTS;
  if (shots)
    await page.screenshot({ path: path.join(shots, 'authenticators.png'), fullPage: true });

  const listed = (await rest(t, 'GET', '/v1/authenticators', key)).body.authenticators;
  expect(listed).toHaveLength(1);

  // Another account cannot delete it from its own console session.
  const other = await signUp('totp-other@example.test');
  await other.goto(`${t.consoleUrl}/authenticators`);
  const [foreign] = await Promise.all([
    other.waitForResponse((r) => r.url().includes('/delete')),
    other.evaluate((id) => {
      const form = document.querySelector('form[action$="/authenticators"]') as HTMLFormElement;
      form.action = form.action.replace(/\/authenticators$/, `/authenticators/${id}/delete`);
      form.submit();
    }, listed[0].id),
  ]);
  expect(foreign.status()).toBe(404);
  expect((await rest(t, 'GET', '/v1/authenticators', key)).body.authenticators).toHaveLength(1);

  await page.getByRole('button', { name: 'Delete' }).click();
  await expect.poll(() => page.getByText('No authenticators yet.').count()).toBe(1);
  expect((await rest(t, 'GET', '/v1/authenticators', key)).body.authenticators).toEqual([]);
  await page.context().close();
  await other.context().close();
});
