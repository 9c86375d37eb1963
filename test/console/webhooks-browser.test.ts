/**
 * The console's webhooks page in headless Chromium: a person adds an endpoint by its
 * `Endpoint URL`, sees the signing secret once, sends a test event with `Send test event`, and
 * sees the delivery's status; a receiver verifying with the stock library gets the event.
 */
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { linkIn } from '../helpers/mail.ts';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.ts';

let t: TestApp;
let browser: Browser;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  browser = await launchBrowser();
  receiver = await startReceiver();
});
afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await receiver?.close();
});

/** A person who signed up on `app`'s console; `verified`: and opened the mailed link. */
async function signedUp(email: string, app = t, verified = true): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${app.consoleUrl}/signup`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect.poll(() => page.url()).toBe(`${app.consoleUrl}/`);
  if (verified) {
    await page.goto(linkIn(await app.mail!.next(email), 'verify'));
    await page.goto(`${app.consoleUrl}/`);
  }
  return page;
}

test('a person adds an endpoint, sees its secret once, sends a test event and sees it delivered', async () => {
  const page = await signedUp('hooks@example.test');
  await page.getByRole('link', { name: 'Webhooks' }).click();
  await expect.poll(() => page.url()).toBe(`${t.consoleUrl}/webhooks`);

  await page.getByLabel('Endpoint URL').fill(receiver.url);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const secret = (await page.locator('#new-secret').textContent())!;
  expect(secret).toMatch(/^whsec_/);

  await page.getByRole('button', { name: 'Send test event' }).click();
  await expect.poll(() => page.getByRole('status').textContent()).toContain('Test event queued');
  // The secret is not shown again on any later page.
  expect(await page.content()).not.toContain(secret);

  const [request] = await receiver.next(1);
  const event = new Webhook(secret).verify(request!.body, request!.headers) as { type: string };
  expect(event.type).toBe('webhook.test');

  await expect
    .poll(async () => {
      await page.reload();
      return page.getByRole('cell', { name: 'delivered', exact: true }).count();
    })
    .toBe(1);
  expect(await page.getByRole('cell', { name: 'webhook.test', exact: true }).count()).toBe(1);
  await page.screenshot({ path: '/tmp/latchkey-webhooks-page.png', fullPage: true });

  // An endpoint the worker disabled after 5 days of failures (tested in test/webhooks) says so.
  await t.app.db.orm.em
    .fork()
    .execute('update webhook_endpoint set failing_since = ?, disabled_at = ? where url = ?', [
      new Date(Date.now() - 5 * 24 * 3600 * 1000),
      new Date(),
      receiver.url,
    ]);
  await page.reload();
  expect(await page.getByText('Disabled', { exact: true }).count()).toBe(1);
  expect(await page.getByText('after 5 days of failed deliveries').count()).toBe(1);
  await page.context().close();
});

test('a loopback URL is refused on the page with the reason when private targets are not allowed', async () => {
  const strict = await startTestApp();
  try {
    const page = await signedUp('strict@example.test', strict);
    await page.goto(`${strict.consoleUrl}/webhooks`);
    await page.getByLabel('Endpoint URL').fill('https://127.0.0.1/hook');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toContain('must not point at loopback');
    expect(await page.getByText('No endpoints yet.').count()).toBe(1);
    await page.context().close();
  } finally {
    await strict.stop();
  }
});

test('a person whose email is not verified yet cannot add an endpoint, and is told to verify', async () => {
  const page = await signedUp('unverified-hooks@example.test', t, false);
  await page.goto(`${t.consoleUrl}/webhooks`);
  await page.getByLabel('Endpoint URL').fill(receiver.url);
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await expect.poll(() => page.getByRole('alert').textContent()).toContain('Verify your email');
  expect(await page.getByText('No endpoints yet.').count()).toBe(1);
  expect(await page.locator('#new-secret').count()).toBe(0);
  await page.context().close();
});
