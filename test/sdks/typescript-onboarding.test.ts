/**
 * Issue 13: agent onboarding with the TypeScript SDK. `Latchkey.register()` gives the user code and
 * verification URI; the person claims on the real console claim page in Chromium; `claim()`,
 * polling at the service's interval, returns a client that works, re-mints its access token with
 * the jwt-bearer grant before it expires, and re-mints once when its token was revoked.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { Latchkey } from '../../sdks/typescript/src/index.ts';
import { email, jwtBearer, password, person, postForm } from '../auth/support.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';

let t: TestApp;
let browser: Browser;
beforeAll(async () => {
  [t, browser] = await Promise.all([
    startTestApp({ env: { CLAIM_POLL_INTERVAL: '1', ACCESS_TOKEN_TTL: '60' } }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

async function claimInBrowser(verificationUri: string, address: string, userCode: string) {
  const page = await (await browser.newContext()).newPage();
  await page.goto(verificationUri);
  await expect.poll(() => new URL(page.url()).pathname).toBe('/console/login');
  await page.getByLabel('Email').fill(address);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe('/console/claim');
  await page.getByLabel('Code').fill(userCode);
  await page.getByRole('button', { name: 'Claim' }).click();
  await expect.poll(() => page.getByText('Agent connected').count()).toBeGreaterThan(0);
  await page.context().close();
}

test('register gives a user code and verification URI; after the person claims in the browser, claim() returns a working client that re-mints its token', async () => {
  const address = email('sdk-owner');
  await person(t, address);
  const grants: string[] = [];
  const observed: typeof fetch = async (input, init) => {
    if (String(input).endsWith('/oauth2/token')) {
      grants.push(new URLSearchParams(String(init?.body)).get('grant_type')!);
    }
    return fetch(input, init);
  };
  const registration = await Latchkey.register({
    claimEmail: address,
    name: 'sdk test agent',
    baseUrl: t.baseUrl,
    fetch: observed,
  });
  expect(registration.userCode).toMatch(/\S/);
  expect(registration.verificationUri.startsWith(`${t.baseUrl}/console/claim`)).toBe(true);
  expect(registration.interval).toBe(1);

  // claim() polls while the person is still signing in: the first answers are pending.
  const claiming = registration.claim();
  await claimInBrowser(registration.verificationUri, address, registration.userCode);
  const agent = await claiming;
  expect(grants[0]).toBe('urn:latchkey:agent-auth:grant-type:claim');
  const opened = await agent.openChallenge({ channel: 'email_otp' });
  expect(opened.state).toBe('active');
  expect(grants.filter((g) => g === jwtBearer)).toHaveLength(0);

  // 55 s later (of a 60 s token) the next request first re-mints with the jwt-bearer grant.
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 55_000 });
  try {
    expect((await agent.getSession(opened.session_id)).session_id).toBe(opened.session_id);
  } finally {
    vi.useRealTimers();
  }
  expect(grants.filter((g) => g === jwtBearer)).toHaveLength(1);
}, 60_000);

test('a claimed client whose access token was revoked re-mints once with its assertion and carries on', async () => {
  const address = email('sdk-revoked');
  await person(t, address);
  const tokens: string[] = [];
  const observed: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (String(input).endsWith('/oauth2/token') && response.ok) {
      tokens.push((await response.clone().json()).access_token);
    }
    return response;
  };
  const registration = await Latchkey.register({
    claimEmail: address,
    name: 'revoked agent',
    baseUrl: t.baseUrl,
    fetch: observed,
  });
  const claiming = registration.claim();
  await claimInBrowser(registration.verificationUri, address, registration.userCode);
  const agent = await claiming;
  expect(tokens).toHaveLength(1);
  expect((await postForm(`${t.baseUrl}/oauth2/revoke`, { token: tokens[0]! })).status).toBe(200);

  const opened = await agent.openChallenge({ channel: 'email_otp' });
  expect(opened.state).toBe('active');
  expect(tokens).toHaveLength(2);
  expect(tokens[1]).not.toBe(tokens[0]);
}, 60_000);
