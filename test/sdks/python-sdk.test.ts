/**
 * Issue 13: the Python SDK (sdks/python) tested with pytest against the real service, started here
 * in-process on the embedded database. pytest gets the URL, API keys of fresh accounts, a verified
 * and signed-in person (for the claim through the console) and webhook signatures made by the
 * stock standardwebhooks library; this test passes when every pytest test does, and reports
 * pytest's counts. For issues 20 and 21 it also runs a DNS server on loopback publishing SPF, DKIM
 * and DMARC for acme.example, a mailer pytest asks to send (DKIM-signed or forged) mail over SMTP,
 * and sets the service's injected clock to the start of a TOTP time step, so totp waits answer
 * without holding for a real step.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { email, person } from '../auth/support.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { type DnsServer, startDnsServer } from '../helpers/dns.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';
import { ensureVenv, run, venvBin } from './python-venv.ts';

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const dkimKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

let t: TestApp;
let dns: DnsServer;
let mailer: http.Server;
let scratch: string;
beforeAll(async () => {
  dns = await startDnsServer();
  // acme.example signs its mail and sends from 127.0.0.1; evil.example is a forger's domain.
  dns.txt('acme.example', 'v=spf1 ip4:127.0.0.1 -all');
  dns.txt(
    's1._domainkey.acme.example',
    `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`,
  );
  dns.txt('_dmarc.acme.example', 'v=DMARC1; p=reject');
  dns.txt('evil.example', 'v=spf1 ip4:127.0.0.1 -all');
  [t] = await Promise.all([
    startTestApp({
      env: {
        DNS_SERVERS: dns.address,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        FREE_TIER_MONTHLY_SESSIONS: '10000',
        ACCESS_TOKEN_TTL: '2',
        CLAIM_POLL_INTERVAL: '1',
      },
    }),
    ensureVenv(),
  ]);
  scratch = await mkdtemp(path.join(tmpdir(), 'latchkey-py-'));
  mailer = await startMailer();
}, 240_000);
afterAll(async () => {
  await t?.stop();
  await dns?.stop();
  await new Promise((resolve) => mailer?.close(resolve));
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/**
 * What pytest sends mail through: `POST {to, from, subject, text, html?, envelope_from?, dkim?}`
 * goes to the service's SMTP listener with nodemailer (DKIM-signed for `dkim`), answered `204`
 * once the service accepted it. Python's standard library cannot sign with DKIM.
 */
async function startMailer() {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      try {
        const { dkim, envelope_from, ...mail } = JSON.parse(Buffer.concat(chunks).toString());
        await nodemailer
          .createTransport({
            host: '127.0.0.1',
            port: t.app.smtpPort!,
            secure: false,
            ignoreTLS: true,
            name: 'mail.sender.example',
            ...(dkim ? { dkim: { domainName: dkim, keySelector: 's1', privateKey: dkimKey } } : {}),
          })
          .sendMail({
            ...mail,
            ...(envelope_from ? { envelope: { from: envelope_from, to: [mail.to] } } : {}),
          });
        response.writeHead(204).end();
      } catch (error) {
        response.writeHead(500).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

async function webhookFixture() {
  const secret = `whsec_${Buffer.from('a webhook secret of 32 bytes....').toString('base64')}`;
  const other = `whsec_${Buffer.from('another secret of 32 bytes......').toString('base64')}`;
  const body = JSON.stringify({ type: 'session.verdict', data: { otp_code: '123456' } });
  const at = new Date();
  const file = path.join(scratch, 'webhook.json');
  await writeFile(
    file,
    JSON.stringify({
      secret,
      other_secret: other,
      body,
      signed_at: Math.floor(at.getTime() / 1000),
      headers: {
        'webhook-id': 'msg_py_test',
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign('msg_py_test', at, body),
      },
    }),
  );
  return file;
}

test('every pytest test of the Python SDK passes against the running service', async () => {
  const owner = email('py-owner');
  const signedIn = await person(t, owner);
  const fresh: string[] = [];
  for (let i = 0; i < 10; i++) fresh.push(await apiKey(t, await newAccount(t)));
  // The service's clock, 1 s into a 30 s TOTP step from now on, and its timer (used only by a
  // totp wait holding for the next step) moves that clock forward instead of sleeping.
  const real = { clock: t.app.challenges.clock, after: t.app.challenges.after };
  let offset = Math.ceil(Date.now() / 30_000) * 30_000 + 1_000 - Date.now();
  Object.assign(t.app.challenges, {
    clock: () => new Date(Date.now() + offset),
    after: (ms: number, callback: () => void) => {
      const timer = setImmediate(() => {
        offset += ms;
        callback();
      });
      return () => clearImmediate(timer);
    },
  });
  const result = await run(
    venvBin('pytest'),
    ['-q', '-p', 'no:cacheprovider', 'sdks/python/tests'],
    {
      LATCHKEY_BASE_URL: t.baseUrl,
      SERVICE_API_KEY: await apiKey(t, await newAccount(t)),
      LATCHKEY_TEST_FRESH_KEYS: fresh.join(','),
      LATCHKEY_TEST_PERSON_EMAIL: owner,
      LATCHKEY_TEST_PERSON_COOKIE: signedIn.cookieHeader,
      LATCHKEY_TEST_WEBHOOK_FIXTURE: await webhookFixture(),
      LATCHKEY_TEST_MAILER_URL: `http://127.0.0.1:${(mailer.address() as AddressInfo).port}/send`,
    },
  );
  Object.assign(t.app.challenges, real);
  const summary = /(\d+) passed/.exec(result.output);
  console.log(`python sdk: ${result.output.trim().split('\n').at(-1)}`);
  expect(result.code, result.output.slice(-6000)).toBe(0);
  // pytest exits 5 when it collects nothing; a run that passed must have run the tests.
  expect(Number(summary?.[1])).toBeGreaterThanOrEqual(30);
}, 240_000);
