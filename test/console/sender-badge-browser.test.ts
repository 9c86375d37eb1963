/**
 * Issue 21 in real Chromium: the console's session page shows each email's sender and whether it
 * is authenticated. Real mail goes over SMTP to the service: one DKIM-signed by acme.example, whose
 * SPF, DKIM key and DMARC record a real DNS server on loopback publishes, and one forged in
 * acme.example's name from another envelope. The signed one shows "Authenticated" (the ok badge),
 * the forged one "Not authenticated" (the warning badge), each with its SPF/DKIM/DMARC words.
 */
import { generateKeyPairSync } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bearer, claimedAgent, email, password } from '../auth/support.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { type DnsServer, startDnsServer } from '../helpers/dns.ts';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

let t: TestApp;
let dns: DnsServer;
let browser: Browser;
beforeAll(async () => {
  dns = await startDnsServer();
  dns.txt('acme.example', 'v=spf1 ip4:127.0.0.1 -all');
  dns.txt(
    's1._domainkey.acme.example',
    `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`,
  );
  dns.txt('_dmarc.acme.example', 'v=DMARC1; p=reject');
  dns.txt('evil.example', 'v=spf1 ip4:127.0.0.1 -all');
  [t, browser] = await Promise.all([
    startTestApp({ env: { DNS_SERVERS: dns.address } }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await t?.stop();
  await dns?.stop();
});

const mailer = (signed: boolean) =>
  nodemailer.createTransport({
    host: '127.0.0.1',
    port: t.app.smtpPort!,
    secure: false,
    ignoreTLS: true,
    name: 'mail.sender.example',
    ...(signed
      ? {
          dkim: {
            domainName: 'acme.example',
            keySelector: 's1',
            privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
          },
        }
      : {}),
  });

test('the session page badges a DKIM-signed email "Authenticated" and a forged one "Not authenticated", with the SPF, DKIM and DMARC results', async () => {
  const address = email('badge');
  const agent = await claimedAgent(t, address, { name: 'Mail bot' });
  const opened = await fetch(`${t.baseUrl}/v1/sessions`, {
    method: 'POST',
    headers: { ...bearer(agent.accessToken), 'content-type': 'application/json' },
    body: JSON.stringify({ channel: 'email_otp' }),
  });
  expect(opened.status).toBe(201);
  const session = (await opened.json()) as { session_id: string; inbox_address: string };
  await mailer(false).sendMail({
    envelope: { from: 'bounce@evil.example', to: [session.inbox_address] },
    from: 'Acme <forged@acme.example>',
    to: session.inbox_address,
    subject: 'Your Acme code',
    text: 'Your verification code is 111222.',
  });
  await mailer(true).sendMail({
    from: 'Acme <login@acme.example>',
    to: session.inbox_address,
    subject: 'Your Acme code',
    text: 'Your verification code is 333444.',
  });

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${t.consoleUrl}/login`);
  await page.getByLabel('Email').fill(address);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => page.url()).toBe(`${t.consoleUrl}/`);
  await page.goto(`${t.consoleUrl}/sessions/${session.session_id}`);

  const genuine = page.getByRole('row', { name: /login@acme\.example/ });
  const forged = page.getByRole('row', { name: /forged@acme\.example/ });
  await expect.poll(() => genuine.count()).toBe(1);
  expect(await forged.count()).toBe(1);

  const genuineBadge = genuine.locator('.badge');
  expect(await genuineBadge.textContent()).toBe('Authenticated');
  expect(await genuineBadge.getAttribute('title')).toBe('SPF pass, DKIM pass, DMARC pass');
  expect(await genuineBadge.getAttribute('class')).toContain('badge-ok');
  expect(await genuine.textContent()).toContain('333444');

  const forgedBadge = forged.locator('.badge');
  expect(await forgedBadge.textContent()).toBe('Not authenticated');
  // SPF passes for the forger's own envelope domain, which is not the From domain: DMARC fails.
  expect(await forgedBadge.getAttribute('title')).toBe('SPF pass, DKIM none, DMARC fail');
  expect(await forgedBadge.getAttribute('class')).toContain('badge-warn');

  // The two badges look different to a person, not only in their words.
  const colour = (selector: typeof genuineBadge) =>
    selector.evaluate((element) => getComputedStyle(element).backgroundColor);
  expect(await colour(genuineBadge)).not.toBe(await colour(forgedBadge));
  await context.close();
});
