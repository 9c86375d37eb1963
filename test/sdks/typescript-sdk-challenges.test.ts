/**
 * Issues 20 and 21 in the TypeScript SDK, against the real service in-process: authenticators
 * (TOTP enrolments) managed with `authenticators.list/create/delete`, a `totp` session's code equal
 * to a stock authenticator's (otplib) for the same URI, the README's TOTP snippet run as written,
 * and `require_authenticated_sender` with real DKIM-signed and forged mail over SMTP, checked by a
 * real DNS server on loopback, the verdict carrying its `sender`.
 *
 * Time: the app's injected clock is a TestClock (its timer moves the clock instead of sleeping),
 * so a wait never holds for a real 30 s step.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import nodemailer from 'nodemailer';
import { authenticator as stock } from 'otplib';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { Latchkey, LatchkeyError, type Sender } from '../../sdks/typescript/src/index.ts';
import type { ChallengeDeps } from '../../src/domain/context.ts';
import type { TestApp } from '../helpers/app.ts';
import { startChallengeApp, TestClock } from '../helpers/challenges.ts';
import { type DnsServer, startDnsServer } from '../helpers/dns.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

const root = path.resolve(import.meta.dirname, '../..');
const exec = promisify(execFile);

const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const dkimRecord = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
const dkimKey = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

let t: TestApp;
let dns: DnsServer;
let real: Pick<ChallengeDeps, 'clock' | 'after'>;
beforeAll(async () => {
  dns = await startDnsServer();
  // acme.example signs its mail and sends from 127.0.0.1; evil.example is a forger.
  dns.txt('acme.example', 'v=spf1 ip4:127.0.0.1 -all');
  dns.txt('s1._domainkey.acme.example', dkimRecord);
  dns.txt('_dmarc.acme.example', 'v=DMARC1; p=reject');
  dns.txt('evil.example', 'v=spf1 ip4:127.0.0.1 -all');
  t = await startChallengeApp({
    env: { DNS_SERVERS: dns.address, FREE_TIER_MONTHLY_SESSIONS: '10000' },
  });
  real = { clock: t.app.challenges.clock, after: t.app.challenges.after };
});
afterEach(() => Object.assign(t.app.challenges, real));
afterAll(async () => {
  await t?.stop();
  await dns?.stop();
});

/** Every face reads time from `clock` (the deps object is shared by all of them). */
function useClock(clock: TestClock) {
  Object.assign(t.app.challenges, { clock: clock.now, after: clock.after });
}

/** 1 s into a 30 s step: a code with 29 s of validity is handed out at once. */
const stepStart = new Date(Math.ceil(Date.now() / 30_000) * 30_000 + 1_000);
const stockCode = (secret: string, at: Date) => {
  stock.options = { epoch: at.getTime(), step: 30, digits: 6 };
  return stock.generate(secret);
};

const fresh = async () => {
  const key = await apiKey(t, await newAccount(t));
  return { key, client: new Latchkey({ apiKey: key, baseUrl: t.baseUrl }) };
};

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
};

describe('authenticators and totp sessions', () => {
  const secret = 'KRSXG5CTMVRXEZLUKN2XAZLSKNSWG4TF';
  const uri = `otpauth://totp/Acme:agent@acme.example?secret=${secret}&issuer=Acme`;

  test('authenticators.create stores the enrolment without echoing its secret; list shows it; delete removes it', async () => {
    const { client } = await fresh();
    const created = await client.authenticators.create({
      target: 'acme.example',
      otpauth_uri: uri,
    });
    expect(created).toMatchObject({
      target: 'acme.example',
      label: 'agent@acme.example',
      issuer: 'Acme',
      digits: 6,
      period: 30,
      algorithm: 'SHA1',
    });
    expect(created.id).toMatch(/^aut_/);
    expect(JSON.stringify(created)).not.toContain(secret);
    const other = await client.authenticators.create({
      target: 'other.example',
      secret,
      digits: 8,
      algorithm: 'SHA256',
    });
    const listed = await client.authenticators.list();
    expect(listed.map((a) => a.id)).toEqual([created.id, other.id]);
    expect(JSON.stringify(listed)).not.toContain(secret);
    await client.authenticators.delete(created.id);
    expect((await client.authenticators.list()).map((a) => a.id)).toEqual([other.id]);
  });

  test('authenticators.list reads every page', async () => {
    const { client, key } = await fresh();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await client.authenticators.create({ target: `app${i}.example`, secret })).id);
    }
    const pages: string[] = [];
    const observed: typeof fetch = async (input, init) => {
      if (new URL(String(input)).pathname === '/v1/authenticators') pages.push(String(input));
      return fetch(input, init);
    };
    const lister = new Latchkey({ apiKey: key, baseUrl: t.baseUrl, fetch: observed });
    expect((await lister.authenticators.list()).map((a) => a.id)).toEqual(ids);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toContain('limit=100');
  });

  test('a bad enrolment is LatchkeyError 400 invalid_request naming the field; a key without authenticators:manage is 403', async () => {
    const { client } = await fresh();
    const bad = await failure(
      client.authenticators.create({
        target: 'acme.example',
        otpauth_uri: 'otpauth://hotp/x?secret=AAAA',
      }),
    );
    expect(bad).toBeInstanceOf(LatchkeyError);
    expect(bad).toMatchObject({ status: 400, code: 'invalid_request' });
    expect((bad as LatchkeyError).detail).toContain('otpauth_uri');
    expect(await client.authenticators.list()).toEqual([]);
    const narrow = new Latchkey({
      apiKey: await apiKey(t, await newAccount(t), ['sessions:read', 'sessions:write']),
      baseUrl: t.baseUrl,
    });
    expect(await failure(narrow.authenticators.list())).toMatchObject({
      status: 403,
      code: 'insufficient_scope',
    });
    expect(await failure(client.authenticators.delete('aut_unknown'))).toMatchObject({
      status: 404,
    });
  });

  test("a totp session opened with the SDK waits for the current step's code, equal to a stock authenticator's", async () => {
    const clock = new TestClock(stepStart);
    useClock(clock);
    const { client } = await fresh();
    const stored = await client.authenticators.create({ target: 'acme.example', otpauth_uri: uri });
    const session = await client.openChallenge({
      channel: 'totp',
      target: 'https://acme.example/login',
    });
    expect(session).toMatchObject({ channel: 'totp', authenticator_id: stored.id });
    const verdict = await client.waitForVerdict(session.session_id, { timeout: 60 });
    expect(verdict.verdict).toBe('otp_code');
    expect(verdict.otp_code).toBe(stockCode(secret, stepStart));
    expect(verdict.valid_until).toBe(new Date(stepStart.getTime() - 1_000 + 30_000).toISOString());
    // A second session on the same authenticator never gets that code: it holds for the next step.
    const second = await client.openChallenge({ channel: 'totp', authenticator_id: stored.id });
    const next = await client.waitForVerdict(second.session_id, { timeout: 60 });
    expect(next.otp_code).toBe(stockCode(secret, new Date(next.received_at!)));
    expect(next.otp_code).not.toBe(verdict.otp_code);
    expect(new Date(next.received_at!).getTime()).toBeGreaterThanOrEqual(
      new Date(verdict.valid_until!).getTime(),
    );
  });

  test('opening a totp session for a host without an authenticator is LatchkeyError 422 no_authenticator', async () => {
    const { client } = await fresh();
    expect(
      await failure(client.openChallenge({ channel: 'totp', target: 'https://nobody.example' })),
    ).toMatchObject({ status: 422, code: 'no_authenticator' });
  });

  test("the READMEs' TOTP snippet is example/totp.ts, verbatim, and it prints the stock authenticator's code", async () => {
    const example = await readFile(path.join(root, 'sdks/typescript/example/totp.ts'), 'utf8');
    for (const readme of ['README.md', 'sdks/typescript/README.md']) {
      expect(await readFile(path.join(root, readme), 'utf8')).toContain(
        `\`\`\`ts\n${example}\`\`\``,
      );
    }
    const clock = new TestClock(stepStart);
    useClock(clock);
    const { key } = await fresh();
    // Run as a customer would, with the package name pointing at the SDK's source.
    const scratch = await mkdtemp(path.join(tmpdir(), 'latchkey-totp-example-'));
    try {
      const script = path.join(scratch, 'totp.ts');
      const sdk = pathToFileURL(path.join(root, 'sdks/typescript/src/index.ts')).href;
      await writeFile(script, example.replace("'@latchkey/sdk'", `'${sdk}'`));
      const { stdout } = await exec(path.join(root, 'node_modules/.bin/node'), [script], {
        env: { ...process.env, SERVICE_API_KEY: key, LATCHKEY_BASE_URL: t.baseUrl },
      });
      const code = stockCode('JBSWY3DPEHPK3PXPJBSWY3DP', stepStart);
      expect(stdout).toContain(`code: ${code} valid until: `);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});

describe('require_authenticated_sender', () => {
  const mailer = (dkim?: string) =>
    nodemailer.createTransport({
      host: '127.0.0.1',
      port: t.app.smtpPort!,
      secure: false,
      ignoreTLS: true,
      name: 'mail.sender.example',
      ...(dkim ? { dkim: { domainName: dkim, keySelector: 's1', privateKey: dkimKey } } : {}),
    });
  const linkMail = (url: string) => ({
    subject: 'Sign in to Acme',
    text: `Sign in: ${url}`,
    html: `<p><a href="${url}">Sign in to Acme</a></p>`,
  });

  test('a forged link that arrives first is stored but never returned; the genuine one is, with its sender', async () => {
    const { client } = await fresh();
    const session = await client.openChallenge({
      channel: 'magic_link',
      target: 'https://acme.example/login',
      require_authenticated_sender: true,
    });
    expect(session.require_authenticated_sender).toBe(true);
    const waiting = client.waitForVerdict(session.session_id, { timeout: 30 });
    await mailer().sendMail({
      envelope: { from: 'bounce@evil.example', to: [session.inbox_address!] },
      from: 'Acme <login@acme.example>',
      to: session.inbox_address,
      ...linkMail('https://acme-login.evil.example/verify?token=Rm9yZ2VkMQ'),
    });
    // The forged one is listed, rejected, before the genuine one is sent.
    const listed = await client.getMessages(session.session_id);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      rejected: 'sender_not_authenticated',
      sender: { address: 'login@acme.example', authenticated: false, dkim: 'none' },
    });
    await mailer('acme.example').sendMail({
      from: 'Acme <login@acme.example>',
      to: session.inbox_address,
      ...linkMail('https://acme.example/verify?token=R2VudWluZTE'),
    });
    const verdict = await waiting;
    expect(verdict).toMatchObject({
      verdict: 'magic_link',
      magic_link: 'https://acme.example/verify?token=R2VudWluZTE',
      link_domain: 'acme.example',
      link_matches_target: true,
    });
    const sender: Sender = verdict.sender!;
    expect(sender).toEqual({
      address: 'login@acme.example',
      domain: 'acme.example',
      authenticated: true,
      spf: 'pass',
      dkim: 'pass',
      dmarc: 'pass',
    });
  });

  test('without the requirement the first message is the verdict, and its sender says it is not authenticated', async () => {
    const { client } = await fresh();
    const session = await client.openChallenge({ channel: 'email_otp' });
    expect(session.require_authenticated_sender).toBe(false);
    await mailer().sendMail({
      envelope: { from: 'bounce@evil.example', to: [session.inbox_address!] },
      from: 'Acme <login@acme.example>',
      to: session.inbox_address,
      subject: 'Your Acme code',
      text: 'Your verification code is 604213.',
    });
    const verdict = await client.waitForVerdict(session.session_id, { timeout: 10 });
    expect(verdict.otp_code).toBe('604213');
    expect(verdict.sender).toMatchObject({ authenticated: false, dmarc: 'fail' });
  });

  test('require_authenticated_sender on an sms_otp session is LatchkeyError 400 invalid_request', async () => {
    const { client } = await fresh();
    expect(await failure(client.provision({ require_authenticated_sender: true }))).toMatchObject({
      status: 400,
      code: 'invalid_request',
    });
  });
});
