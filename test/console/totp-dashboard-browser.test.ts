/**
 * Issue 20 in real Chromium: the live dashboard shows a `totp` verdict like the others. The
 * dashboard re-renders on the account's events (GraphQL `accountEvents` over SSE); when an agent's
 * wait on a totp session is handed a code, the session's row turns to "code received" without a
 * reload. The code itself is never on the page: it is computed for the waiter and never stored.
 * The app's clock is a TestClock, so the wait never holds for a real 30 s step.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bearer, claimedAgent, email, password } from '../auth/support.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { TestClock } from '../helpers/challenges.ts';
import { apiKey } from '../helpers/principals.ts';

let t: TestApp;
let browser: Browser;
beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

test('an agent\'s totp code turns its session\'s row to "code received" on the open dashboard, without a reload and without the code', async () => {
  const address = email('totp-watcher');
  const agent = await claimedAgent(t, address, { name: 'TOTP bot' });
  const call = async (method: string, route: string, body?: unknown, key?: string) => {
    const response = await fetch(`${t.baseUrl}${route}`, {
      method,
      headers: {
        ...(key ? { 'x-api-key': key } : bearer(agent.accessToken)),
        'content-type': 'application/json',
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: await response.json() };
  };
  // The enrolment is stored with a key holding authenticators:manage (agents get it only on request).
  const [row] = await t.app.db.orm.em
    .fork()
    .execute<{ account_id: string }[]>('select account_id from app_user where email = ?', [
      address,
    ]);
  const key = await apiKey(t, row!.account_id);
  const stored = await call(
    'POST',
    '/v1/authenticators',
    { target: 'acme.example', secret: 'KRSXG5CTMVRXEZLUKN2XAZLSKNSWG4TF' },
    key,
  );
  expect(stored.status).toBe(201);

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${t.consoleUrl}/login`);
  await page.getByLabel('Email').fill(address);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => page.url()).toBe(`${t.consoleUrl}/`);
  await expect
    .poll(() => page.locator('#live-status').textContent())
    .toContain('Live: new sessions');

  const opened = await call('POST', '/v1/sessions', { channel: 'totp', target: 'acme.example' });
  expect(opened.status).toBe(201);
  const sessionRow = page.getByRole('row', { name: new RegExp(opened.body.session_id) });
  await expect.poll(() => sessionRow.count()).toBe(1);
  expect(await sessionRow.textContent()).toContain('active');

  const real = { clock: t.app.challenges.clock, after: t.app.challenges.after };
  const clock = new TestClock(new Date(Math.ceil(Date.now() / 30_000) * 30_000 + 1_000));
  Object.assign(t.app.challenges, { clock: clock.now, after: clock.after });
  try {
    const waited = await call('POST', `/v1/sessions/${opened.body.session_id}/wait`, {
      timeout: 60,
    });
    expect(waited.body.verdict).toBe('otp_code');
    await expect.poll(() => sessionRow.textContent()).toContain('code received');
    expect(await page.content()).not.toContain(waited.body.otp_code);
  } finally {
    Object.assign(t.app.challenges, real);
  }
  await context.close();
});
