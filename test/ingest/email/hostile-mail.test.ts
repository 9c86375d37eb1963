/**
 * Issue 11, "one crafted email freezes the whole service", driven through the real SMTP listener
 * with a real client (nodemailer) and the real HTTP server:
 * - a 190,000-deep `<div>` email and a paren-bomb email are read in the worker pool while
 *   `/healthz` keeps answering within 200 ms and other sessions' SMS and email verdicts arrive;
 * - a message to several inboxes is extracted once (`latchkey_extraction_seconds` on /metrics);
 * - past the extraction budget a message is stored as "no code", acknowledged and logged;
 * - a message mailparser cannot parse gets a permanent 554 and nothing is stored;
 * - SMTP_MAX_CLIENTS connections at once, the next greeted with 421.
 */
import net from 'node:net';
import nodemailer from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openSession } from '../../../src/domain/sessions/open.ts';
import { waitForVerdict } from '../../../src/domain/verdicts/wait.ts';
import type { TestApp } from '../../helpers/app.ts';
import {
  countRows,
  createAccount,
  ctxOf,
  postTwilio,
  principalFor,
  rejectionOf,
  startChallengeApp,
} from '../../helpers/challenges.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startChallengeApp();
});
afterAll(() => t?.stop());

function transport(app: TestApp) {
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port: app.app.smtpPort!,
    secure: false,
    ignoreTLS: true,
  });
}

async function openFor(app: TestApp, channel: 'email_otp' | 'sms_otp') {
  const principal = principalFor(await createAccount(app.app));
  const session = await openSession(ctxOf(app.app), principal, { channel });
  return { principal, session };
}

/** `latchkey_extraction_seconds_count{outcome}` as /metrics shows it (0 when absent). */
async function extractions(app: TestApp, outcome: string): Promise<number> {
  const text = await (await fetch(`${app.baseUrl}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`latchkey_extraction_seconds_count{outcome="${outcome}"}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

/** Polls /healthz every 20 ms until `stop` resolves; resolves to the slowest answer in ms. */
async function slowestHealthz(baseUrl: string, stop: Promise<unknown>): Promise<number> {
  let done = false;
  void stop.finally(() => {
    done = true;
  });
  let slowest = 0;
  while (!done) {
    const started = performance.now();
    const response = await fetch(`${baseUrl}/healthz`);
    await response.text();
    expect(response.status).toBe(200);
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return slowest;
}

/**
 * The message as nodemailer would send it, built beforehand: the client runs in this process,
 * and its own encoding work must not be counted against the server's event loop.
 */
function compose(mail: Mail.Options): Promise<Buffer> {
  return new MailComposer(mail).compile().build();
}

/** 190,000 nested <div> after the code: about 1 MB once encoded, under the 1 MiB SIZE. */
const NESTED_DIVS = `<p>Your Acme code is 482913</p>${'<div>'.repeat(190_000)}`;
/** A URL followed by 4,000 `)`, forty times over, in the text part and in the HTML. */
const PARENS = Array.from(
  { length: 40 },
  (_, i) => `https://acme.example/l/${i}${')'.repeat(4000)}`,
).join(' ');

describe('hostile inbound mail (issue 11)', () => {
  test('while a 190,000-deep <div> email and a paren-bomb email are read, /healthz answers within 200 ms and other sessions get their SMS and email codes', async () => {
    const target = await openFor(t, 'email_otp');
    const bomb = await openFor(t, 'email_otp');
    const mailVictim = await openFor(t, 'email_otp');
    const smsVictim = await openFor(t, 'sms_otp');
    const waits = [mailVictim, smsVictim].map(({ principal, session }) =>
      waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 20 }),
    );
    // The machine's own jitter (shared, loaded CI cores), measured the same way with no mail in
    // flight: the contract's 200 ms is asserted on top of it, so an overloaded machine does not
    // fail the test while the old behaviour (the loop blocked 10-19 s) still fails it.
    const idle = await slowestHealthz(
      t.baseUrl,
      new Promise((resolve) => setTimeout(resolve, 600)),
    );
    const attacker = 'attacker@evil.example';
    const divs = await compose({
      from: attacker,
      to: target.session.inboxAddress!,
      subject: 'Your Acme code',
      html: NESTED_DIVS,
    });
    const parens = await compose({
      from: attacker,
      to: bomb.session.inboxAddress!,
      subject: 'Your Acme code is 660155',
      text: PARENS,
      html: `<p>${PARENS}</p>`,
    });
    expect(divs.length).toBeGreaterThan(900_000);
    const sends: [Buffer, typeof target][] = [
      [divs, target],
      [parens, bomb],
    ];
    const hostile = Promise.all(
      sends.map(([raw, { session }]) =>
        transport(t).sendMail({
          envelope: { from: attacker, to: [session.inboxAddress!] },
          raw,
        }),
      ),
    );
    const slowest = slowestHealthz(t.baseUrl, hostile);
    // The other sessions' messages arrive while the hostile ones are being read.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const sent = Date.now();
    await transport(t).sendMail({
      from: 'no-reply@acme.example',
      to: mailVictim.session.inboxAddress!,
      subject: 'Your Acme verification code',
      text: 'Your verification code is 583920.',
    });
    expect(
      (await postTwilio(t.baseUrl, { to: smsVictim.session.number!, body: 'Acme code: 240117' }))
        .status,
    ).toBe(200);
    const [mailVerdict, smsVerdict] = await Promise.all(waits);
    expect(mailVerdict).toMatchObject({ otpCode: '583920' });
    expect(smsVerdict).toMatchObject({ otpCode: '240117' });
    expect(Date.now() - sent).toBeLessThan(3000);

    const [divsInfo, parensInfo] = await hostile;
    expect(divsInfo.accepted).toEqual([target.session.inboxAddress]);
    expect(parensInfo.accepted).toEqual([bomb.session.inboxAddress]);
    expect(await slowest).toBeLessThan(200 + idle);
    // Both were read within the budget, so their codes were found.
    for (const [{ principal, session }, code] of [
      [target, '482913'],
      [bomb, '660155'],
    ] as const) {
      expect(
        await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 1 }),
      ).toMatchObject({ otpCode: code });
    }
  });

  test('a message to five inboxes is extracted once and delivered to each of the five sessions', async () => {
    const sessions = await Promise.all([1, 2, 3, 4, 5].map(() => openFor(t, 'email_otp')));
    const before = await extractions(t, 'read');
    await transport(t).sendMail({
      from: 'no-reply@acme.example',
      to: sessions.map((s) => s.session.inboxAddress!),
      subject: 'Your code',
      text: 'Your code is 318274',
    });
    expect(await extractions(t, 'read')).toBe(before + 1);
    for (const { principal, session } of sessions) {
      expect(
        await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 1 }),
      ).toMatchObject({ otpCode: '318274' });
    }
  });

  test('a message of more than 1,000 MIME parts cannot be parsed: permanent 554, nothing stored', async () => {
    const { session } = await openFor(t, 'email_otp');
    const parts = Array.from(
      { length: 1100 },
      (_, i) => `--b\r\nContent-Type: text/plain\r\n\r\npart ${i}\r\n`,
    ).join('');
    const raw = `From: a@acme.example\r\nTo: ${session.inboxAddress}\r\nSubject: parts\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n${parts}--b--\r\n`;
    const error = (await rejectionOf(
      transport(t).sendMail({
        envelope: { from: 'a@acme.example', to: [session.inboxAddress!] },
        raw,
      }),
    )) as unknown as { responseCode: number; response: string };
    expect(error.responseCode).toBe(554);
    expect(error.response).toContain('5.6.0');
    expect(await countRows(t.app, 'inbound_message', 'session_id = ?', [session.id])).toBe(0);
    expect(await extractions(t, 'unparseable')).toBeGreaterThanOrEqual(1);
  });
});

describe('the extraction budget', () => {
  let tight: TestApp;
  const logLines: string[] = [];
  beforeAll(async () => {
    tight = await startChallengeApp({
      env: { EXTRACTION_BUDGET_MS: '1', LOG_LEVEL: 'warn' },
      logLines,
    });
  });
  afterAll(() => tight?.stop());

  test('a message still being read when the budget runs out is stored as "no code", acknowledged and logged', async () => {
    const { principal, session } = await openFor(tight, 'email_otp');
    const info = await transport(tight).sendMail({
      from: 'no-reply@acme.example',
      to: session.inboxAddress!,
      subject: 'Your code',
      html: `<p>Your code is 902211</p>${'<p>Welcome to Acme.</p>'.repeat(20_000)}`,
    });
    expect(info.accepted).toEqual([session.inboxAddress]);
    const [stored] = await tight.app.db.orm.em
      .fork()
      .execute<{ outcome: string; from_address: string }[]>(
        'select outcome, from_address from inbound_message where session_id = ?',
        [session.id],
      );
    expect(stored).toEqual({ outcome: 'none', from_address: 'no-reply@acme.example' });
    expect(await countRows(tight.app, 'verdict', 'session_id = ?', [session.id])).toBe(0);
    expect(
      await waitForVerdict(ctxOf(tight.app), principal, session.id, { timeout: 0 }),
    ).toMatchObject({ verdict: 'timeout' });
    const logged = logLines.map((l) => JSON.parse(l) as { msg: string; budgetMs?: number });
    expect(logged).toContainEqual(
      expect.objectContaining({
        msg: 'email extraction over budget: stored without a code',
        budgetMs: 1,
      }),
    );
    expect(logLines.join('\n')).not.toContain('902211');
    expect(await extractions(tight, 'over_budget')).toBe(1);
  });
});

describe('SMTP_MAX_CLIENTS', () => {
  let few: TestApp;
  beforeAll(async () => {
    few = await startChallengeApp({ env: { SMTP_MAX_CLIENTS: '2' } });
  });
  afterAll(() => few?.stop());

  /** Connects and resolves with the server's first line. */
  function greeting(): Promise<{ line: string; socket: net.Socket }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(few.app.smtpPort!, '127.0.0.1');
      socket.once('error', reject);
      socket.once('data', (chunk) => resolve({ line: chunk.toString('utf8'), socket }));
    });
  }

  test('past SMTP_MAX_CLIENTS connections the next client is greeted with 421 and may come back later', async () => {
    const first = await greeting();
    const second = await greeting();
    expect(first.line).toMatch(/^220 /);
    expect(second.line).toMatch(/^220 /);
    const third = await greeting();
    expect(third.line).toMatch(/^421 /);
    for (const { socket } of [first, second, third]) socket.destroy();
    // The server notices the closed sockets asynchronously: a new client is let in once it has.
    let later = await greeting();
    for (let attempt = 0; attempt < 50 && !later.line.startsWith('220 '); attempt += 1) {
      later.socket.destroy();
      later = await greeting();
    }
    expect(later.line).toMatch(/^220 /);
    later.socket.destroy();
  });
});
