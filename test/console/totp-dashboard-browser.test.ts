/**
 * Issue 20 in real Chromium: the live dashboard shows a `totp` verdict like the others. The
 * dashboard re-renders on the account's events (GraphQL `accountEvents` over SSE); when an agent's
 * wait on a totp session is handed a code, the session's row turns to "code received" and a line
 * (channel, session, time, taken) appears under Recent verdicts without a reload, and stays after
 * one, also once the authenticator has served later steps. The code itself is never on the page:
 * it is computed for the waiter and never stored.
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

test('an agent\'s totp code turns its session\'s row to "code received" and appears under Recent verdicts live, after a reload and after later steps, never with the code (issue 20)', async () => {
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

  const active = page.getByRole('region', { name: 'Active sessions' });
  const verdicts = page.getByRole('region', { name: 'Recent verdicts' });
  const opened = await call('POST', '/v1/sessions', { channel: 'totp', target: 'acme.example' });
  expect(opened.status).toBe(201);
  const sessionRow = active.getByRole('row', { name: new RegExp(opened.body.session_id) });
  const verdictRow = verdicts.getByRole('row', { name: new RegExp(opened.body.session_id) });
  await expect.poll(() => sessionRow.count()).toBe(1);
  expect(await sessionRow.textContent()).toContain('active');
  expect(await verdictRow.count()).toBe(0);

  const real = { clock: t.app.challenges.clock, after: t.app.challenges.after };
  const clock = new TestClock(new Date(Math.ceil(Date.now() / 30_000) * 30_000 + 1_000));
  Object.assign(t.app.challenges, { clock: clock.now, after: clock.after });
  try {
    const waited = await call('POST', `/v1/sessions/${opened.body.session_id}/wait`, {
      timeout: 60,
    });
    expect(waited.body.verdict).toBe('otp_code');
    await expect.poll(() => sessionRow.textContent()).toContain('code received');
    // Recent verdicts, live: the channel, the session, when, taken; never the code.
    await expect.poll(() => verdictRow.count()).toBe(1);
    const line = (await verdictRow.textContent()) ?? '';
    expect(line).toContain('Authenticator code');
    expect(line).toContain('authenticator for acme.example');
    expect(line).toContain('TOTP bot');
    expect(line).toContain('yes');
    const servedAt = (waited.body.received_at as string)
      .replace('T', ' ')
      .replace(/\.\d{3}Z$/, ' UTC');
    expect(line).toContain(servedAt);
    expect(await page.content()).not.toContain(waited.body.otp_code);

    // Still there after a reload, and after the authenticator served a step minutes later.
    const later = await call('POST', '/v1/sessions', { channel: 'totp', target: 'acme.example' });
    expect(later.status).toBe(201);
    clock.advance(6 * 30);
    const next = await call('POST', `/v1/sessions/${later.body.session_id}/wait`, { timeout: 60 });
    expect(next.body.verdict).toBe('otp_code');
    await page.reload();
    const laterRow = verdicts.getByRole('row', { name: new RegExp(later.body.session_id) });
    expect(await laterRow.count()).toBe(1);
    expect(await verdictRow.count()).toBe(1);
    expect(await verdictRow.textContent()).toContain('Authenticator code');
    const content = await page.content();
    expect(content).not.toContain(waited.body.otp_code);
    expect(content).not.toContain(next.body.otp_code);

    // The line's session page says what was handed out, and when, without the code.
    await verdictRow.getByRole('link', { name: opened.body.session_id }).click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toContain(opened.body.session_id);
    const codes = page.getByRole('region', { name: 'Codes handed out' });
    expect(await codes.getByRole('row', { name: /authenticator for acme\.example/ }).count()).toBe(
      1,
    );
    expect(await codes.textContent()).toContain(servedAt);
    expect(await page.content()).not.toContain(waited.body.otp_code);

    // The channel filter keeps them with totp and drops them with any other channel.
    await page.goto(`${t.consoleUrl}/?channel=totp`);
    expect(await verdicts.getByRole('row', { name: /Authenticator code/ }).count()).toBe(2);
    await page.goto(`${t.consoleUrl}/?channel=sms_otp`);
    expect(await verdicts.getByRole('row', { name: /Authenticator code/ }).count()).toBe(0);
  } finally {
    Object.assign(t.app.challenges, real);
  }
  await context.close();

  // Another account's dashboard lists none of these served steps.
  const stranger = email('totp-stranger');
  await claimedAgent(t, stranger);
  const other = await browser.newContext();
  const theirs = await other.newPage();
  await theirs.goto(`${t.consoleUrl}/login`);
  await theirs.getByLabel('Email').fill(stranger);
  await theirs.getByLabel('Password').fill(password);
  await theirs.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => theirs.url()).toBe(`${t.consoleUrl}/`);
  const page2 = await theirs.content();
  expect(page2).toContain('Recent verdicts');
  expect(page2).not.toContain(opened.body.session_id);
  expect(page2).not.toContain('Authenticator code</td>');
  await other.close();
});
