/**
 * Issue 14: the console as the place where people watch and run their account, driven in real
 * Chromium. A code appears on the dashboard within 2 s of the SMS (fed by the account's GraphQL
 * subscription, without a reload), Disconnect cuts the agent's token and keys within 1 s, the plan
 * changes and the statement downloads as CSV. Each page is also photographed at desktop (1280)
 * and phone (390) widths; with UPDATE_SCREENSHOTS=1 the pictures replace those in docs/console/.
 */
import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearer, type ClaimedAgent, claimedAgent, email, password } from '../auth/support.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';

let t: TestApp;
let browser: Browser;
let shots: string;

beforeAll(async () => {
  t = await startTestApp();
  browser = await launchBrowser();
  shots = process.env.UPDATE_SCREENSHOTS
    ? path.resolve('docs/console')
    : await mkdtemp(path.join(tmpdir(), 'latchkey-shots-'));
});
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

async function signedIn(address: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${t.consoleUrl}/login`);
  await page.getByLabel('Email').fill(address);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => page.url()).toBe(`${t.consoleUrl}/`);
  return page;
}

async function api(
  agent: ClaimedAgent | Record<string, string>,
  method: string,
  route: string,
  body?: unknown,
) {
  const headers = 'accessToken' in agent ? bearer(agent.accessToken as string) : agent;
  const response = await fetch(`${t.baseUrl}${route}`, {
    method,
    headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json().catch(() => null) };
}

const openSms = async (agent: ClaimedAgent) => {
  const opened = await api(agent, 'POST', '/v1/sessions', { channel: 'sms_otp' });
  expect(opened.status).toBe(201);
  return opened.body as { session_id: string; number: string };
};

const sms = async (agent: ClaimedAgent, to: string, body: string) => {
  const sent = await api(agent, 'POST', '/v1/synthetic/sms', { to, from: '+15550007777', body });
  expect(sent.status).toBeLessThan(300);
};

/** Photographs the page at desktop and phone widths (PNG). */
async function photograph(page: Page, name: string) {
  for (const [width, label] of [
    [1280, 'desktop'],
    [390, 'phone'],
  ] as const) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    const file = path.join(shots, `${name}-${label}.png`);
    await writeFile(file, await page.screenshot({ fullPage: true }));
    expect((await stat(file)).size).toBeGreaterThan(1000);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

describe('the dashboard', () => {
  test('a new session and then its code appear without a reload, the code within 2 s of the SMS', async () => {
    const address = email('watcher');
    const agent = await claimedAgent(t, address, { name: 'Checkout bot' });
    const page = await signedIn(address);
    await expect
      .poll(() => page.locator('#live-status').textContent())
      .toContain('Live: new sessions');

    const session = await openSms(agent);
    const row = page.getByRole('row', { name: new RegExp(session.session_id) });
    await expect.poll(() => row.count(), { timeout: 2000 }).toBe(1);
    const text = (await row.textContent()) ?? '';
    expect(text).toContain(session.number);
    expect(text).toContain('SMS code');
    expect(text).toContain('Checkout bot');
    expect(text).toMatch(/1[45] min \d+ s/);

    const sentAt = Date.now();
    await sms(agent, session.number, 'Your Example verification code is 482913');
    await expect
      .poll(() => page.getByText('482913', { exact: true }).count(), { timeout: 2000 })
      .toBe(1);
    expect(Date.now() - sentAt).toBeLessThan(2000);
    // The dashboard watches; it does not take the code from the agent that waits for it.
    const wait = await api(agent, 'POST', `/v1/sessions/${session.session_id}/wait`, {
      timeout: 0,
    });
    expect(wait.body.otp_code).toBe('482913');
    await photograph(page, 'dashboard');

    // The session's page: the parsed code, never the message body.
    await page.getByRole('link', { name: session.session_id }).first().click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toContain(session.session_id);
    expect(await page.getByText('482913', { exact: true }).count()).toBe(1);
    expect(await page.content()).not.toContain('verification code is');
    await photograph(page, 'session');
    await page.context().close();
  });

  test('filters by channel and agent keep only the matching sessions', async () => {
    const address = email('filters');
    const agent = await claimedAgent(t, address, { name: 'Filter bot' });
    const sms = await openSms(agent);
    const mail = await api(agent, 'POST', '/v1/sessions', { channel: 'email_otp' });
    expect(mail.status).toBe(201);
    const page = await signedIn(address);
    await page.getByLabel('Channel').selectOption('email_otp');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.url()).toContain('channel=email_otp');
    expect(await page.getByRole('row', { name: new RegExp(mail.body.session_id) }).count()).toBe(1);
    expect(await page.getByRole('row', { name: new RegExp(sms.session_id) }).count()).toBe(0);

    await page.goto(`${t.consoleUrl}/?agent=key_none`);
    expect(await page.getByText('No active sessions match these filters.').count()).toBe(1);
    await page.context().close();
  });

  test('an empty dashboard says what to do next: connect an agent, then open a session', async () => {
    const fresh = await browser.newContext();
    const page = await fresh.newPage();
    await page.goto(`${t.consoleUrl}/signup`);
    await page.getByLabel('Email').fill(email('newcomer'));
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByText('No agents yet.').count()).toBe(1);
    expect(await page.getByRole('link', { name: `${t.baseUrl}/agent/skill.md` }).count()).toBe(1);
    await fresh.close();

    const address = email('empty');
    await claimedAgent(t, address);
    const signed = await signedIn(address);
    expect(await signed.getByText('No active sessions.').count()).toBe(1);
    expect(await signed.locator('#open-example').textContent()).toContain('/v1/sessions');
    expect(await signed.getByRole('button', { name: 'Copy example' }).isVisible()).toBe(true);
    await signed.context().close();
  });
});

describe('expiry on the dashboard', () => {
  test('a session that expires leaves the active sessions without a reload, within 2 s of its expiry', async () => {
    const short = await startTestApp({ env: { SESSION_TTL: '2', CHALLENGE_SWEEP_INTERVAL: '1' } });
    try {
      const address = email('expiry');
      const agent = await claimedAgent(short, address);
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${short.consoleUrl}/login`);
      await page.getByLabel('Email').fill(address);
      await page.getByLabel('Password').fill(password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.locator('#live-status').textContent()).toContain('Live:');
      const opened = await fetch(`${short.baseUrl}/v1/sessions`, {
        method: 'POST',
        headers: { ...bearer(agent.accessToken), 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'sms_otp' }),
      });
      const session = (await opened.json()) as { session_id: string; expires_at: string };
      const row = page.getByRole('row', { name: new RegExp(session.session_id) });
      await expect.poll(() => row.count(), { timeout: 2000 }).toBe(1);
      const deadline = Date.parse(session.expires_at) + 2000;
      await expect.poll(() => row.count(), { timeout: deadline - Date.now() }).toBe(0);
      expect(Date.now()).toBeLessThan(deadline);
      await context.close();
    } finally {
      await short.stop();
    }
  });
});

describe('the agents page', () => {
  test('shows each agent with its name, last use, scopes and minted keys; Disconnect cuts token and keys within 1 s', async () => {
    const address = email('agents');
    const agent = await claimedAgent(t, address, { name: 'Invoice agent', scope: 'keys:manage' });
    const minted = await api(agent, 'POST', '/v1/api-keys', { name: 'ci runner' });
    expect(minted.status).toBe(201);
    const key = { 'x-api-key': minted.body.key as string };
    expect((await api(key, 'GET', '/v1/sessions')).status).toBe(200);

    const page = await signedIn(address);
    await page.getByRole('link', { name: 'Agents' }).click();
    const row = page.getByRole('row', { name: /Invoice agent/ });
    const text = (await row.textContent()) ?? '';
    expect(text).toContain(agent.registration.registration_id);
    expect(text).toContain('ci runner');
    expect(text).toContain('keys:manage');
    expect(text).not.toContain('never'); // the token was used: last used is a time
    await photograph(page, 'agents');

    await row.getByRole('button', { name: 'Disconnect', exact: true }).click();
    const clickedAt = Date.now();
    await expect
      .poll(
        async () => [
          (await api(agent, 'GET', '/v1/sessions')).status,
          (await api(key, 'GET', '/v1/sessions')).status,
        ],
        { timeout: 1000, interval: 50 },
      )
      .toEqual([401, 401]);
    expect(Date.now() - clickedAt).toBeLessThan(1000);
    expect(await page.getByRole('status').textContent()).toContain('Agent disconnected');
    await page.context().close();
  });
});

describe('usage and billing', () => {
  test('a verified person changes plan to Per session, is billed 0.99 USD per billable session, and downloads the CSV statement', async () => {
    const address = email('billing');
    const agent = await claimedAgent(t, address);
    const page = await signedIn(address);
    await page.getByRole('link', { name: 'Usage' }).click();
    expect(await page.locator('#current-plan').textContent()).toBe('Free');

    await page.getByLabel('Plan').selectOption({ label: 'Per session' });
    await page.getByRole('button', { name: 'Change plan' }).click();
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toContain('Plan changed to Per session');
    expect(await page.locator('#current-plan').textContent()).toBe('Per session');

    const billed = await openSms(agent);
    await sms(agent, billed.number, 'Your code is 771204');
    await openSms(agent); // no code: not billable
    await page.reload();
    expect(await page.locator('#sessions-used').textContent()).toBe('2');
    expect(await page.locator('#billable-sessions').textContent()).toBe('1');
    expect(await page.locator('#amount-due').textContent()).toBe('0.99 USD');
    expect(await page.getByRole('img', { name: 'Sessions per day' }).count()).toBe(1);
    await photograph(page, 'usage');

    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download statement' }).click();
    const file = await (await download).path();
    const csv = (await readFile(file, 'utf8')).trim().split('\r\n');
    expect(csv[0]).toBe('session_id,kind,channel,agent_id,opened_at,billable_at,amount_usd');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toMatch(
      new RegExp(
        `^${billed.session_id},session_opened,sms_otp,${agent.registration.registration_id},.+,0\\.99$`,
      ),
    );
    await page.context().close();
  });

  test('the API keys page keeps its place in the navigation', async () => {
    const address = email('keys');
    await claimedAgent(t, address);
    const page = await signedIn(address);
    await page.getByRole('link', { name: 'API keys' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'API keys' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'API keys' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await photograph(page, 'api-keys');
    await page.context().close();
  });
});
