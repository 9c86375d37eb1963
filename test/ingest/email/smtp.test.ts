/**
 * The inbound SMTP listener, driven by a real SMTP client (nodemailer): recipients checked during
 * the conversation, the size limit, idempotency on Message-ID per inbox, and the code or link
 * delivered to the waiting agent.
 */
import { gunzipSync } from 'node:zlib';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { closeSession } from '../../../src/domain/sessions/close.ts';
import { openSession } from '../../../src/domain/sessions/open.ts';
import { waitForVerdict } from '../../../src/domain/verdicts/wait.ts';
import type { TestApp } from '../../helpers/app.ts';
import {
  countRows,
  createAccount,
  ctxOf,
  principalFor,
  rejectionOf,
  startChallengeApp,
  watching,
} from '../../helpers/challenges.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startChallengeApp({ env: { SMTP_MAX_MESSAGE_BYTES: '20000' } });
});
afterAll(() => t?.stop());

function transport() {
  return nodemailer.createTransport({
    host: '127.0.0.1',
    port: t.app.smtpPort!,
    secure: false,
    ignoreTLS: true,
  });
}

async function openFor(channel: 'email_otp' | 'magic_link') {
  const principal = principalFor(await createAccount(t.app));
  const session = await openSession(ctxOf(t.app), principal, { channel });
  return { principal, session };
}

describe('SMTP ingest', () => {
  test('an email with a code reaches the waiting agent (email_otp)', async () => {
    const { principal, session } = await openFor('email_otp');
    const ready = watching(t.app, session.inboxAddress!);
    const waiting = waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 10 });
    await ready;
    const sent = Date.now();
    const info = await transport().sendMail({
      from: 'Acme <no-reply@acme.example>',
      to: session.inboxAddress!,
      subject: 'Your Acme verification code',
      text: 'Your verification code is 583920. It expires in 10 minutes.',
      html: '<p>Your verification code is <b>583920</b>. It expires in 10 minutes.</p>',
    });
    expect(info.accepted).toEqual([session.inboxAddress]);
    expect(await waiting).toMatchObject({
      verdict: 'otp_code',
      otpCode: '583920',
      from: 'no-reply@acme.example',
      medium: 'email',
    });
    expect(Date.now() - sent).toBeLessThan(3000);
  });

  test('a sign-in link reaches the waiting agent (magic_link), the recipient matched in any case', async () => {
    const { principal, session } = await openFor('magic_link');
    const ready = watching(t.app, session.inboxAddress!);
    const waiting = waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 10 });
    await ready;
    const sent = Date.now();
    await transport().sendMail({
      from: 'login@acme.example',
      to: session.inboxAddress!.toUpperCase(),
      subject: 'Sign in to Acme',
      html: '<p>Hello!</p><p><a href="https://acme.example/login/verify?token=Qm9vTTk3aXp">Sign in to Acme</a></p><p><a href="https://acme.example/help">Help</a></p>',
      text: 'Sign in: https://acme.example/login/verify?token=Qm9vTTk3aXp',
    });
    expect(await waiting).toMatchObject({
      verdict: 'magic_link',
      magicLink: 'https://acme.example/login/verify?token=Qm9vTTk3aXp',
    });
    expect(Date.now() - sent).toBeLessThan(3000);
  });

  test('RCPT TO an unknown inbox, another domain, or a closed session is refused with 550; nothing is stored', async () => {
    const { principal, session } = await openFor('email_otp');
    await closeSession(ctxOf(t.app), principal, session.id);
    const before = await countRows(t.app, 'inbound_message');
    for (const to of [
      'aaaaaaaaaaaaaaaaaaaaaaaa@inbox.localhost',
      'someone@example.com',
      session.inboxAddress!,
    ]) {
      const error = (await rejectionOf(
        transport().sendMail({ from: 'a@acme.example', to, text: 'code 111111' }),
      )) as unknown as { responseCode: number; rejected: string[] };
      expect(error.responseCode).toBe(550);
      expect(error.rejected).toEqual([to]);
    }
    expect(await countRows(t.app, 'inbound_message')).toBe(before);
  });

  test('a message above SMTP_MAX_MESSAGE_BYTES is refused with 552 and not stored', async () => {
    const { session } = await openFor('email_otp');
    const error = (await rejectionOf(
      transport().sendMail({
        from: 'a@acme.example',
        to: session.inboxAddress!,
        text: `code 222222 ${'x'.repeat(30_000)}`,
      }),
    )) as unknown as { responseCode: number };
    expect(error.responseCode).toBe(552);
    expect(
      await countRows(t.app, 'inbound_message', 'to_address = ?', [session.inboxAddress]),
    ).toBe(0);
  });

  test('the same Message-ID delivered twice to an inbox is stored once', async () => {
    const { principal, session } = await openFor('email_otp');
    const mail = {
      from: 'a@acme.example',
      to: session.inboxAddress!,
      subject: 'Your code',
      text: 'Your code is 909090',
      messageId: '<retry-1@acme.example>',
    };
    await transport().sendMail(mail);
    await transport().sendMail(mail);
    expect(await countRows(t.app, 'inbound_message', 'session_id = ?', [session.id])).toBe(1);
    expect(await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 1 })).toMatchObject(
      {
        otpCode: '909090',
      },
    );
  });

  test('one message to two inboxes is stored once per inbox, each bound to its own session', async () => {
    const first = await openFor('email_otp');
    const second = await openFor('email_otp');
    await transport().sendMail({
      from: 'a@acme.example',
      to: [first.session.inboxAddress!, second.session.inboxAddress!],
      subject: 'Your code',
      text: 'Your code is 717171',
      messageId: '<shared-1@acme.example>',
    });
    for (const { principal, session } of [first, second]) {
      expect(await countRows(t.app, 'inbound_message', 'session_id = ?', [session.id])).toBe(1);
      expect(
        await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 1 }),
      ).toMatchObject({ otpCode: '717171' });
    }
  });

  test('the message as received is kept sealed and gzip-compressed, and opens to the bytes sent', async () => {
    const { session } = await openFor('email_otp');
    const raw = `From: a@acme.example\r\nTo: ${session.inboxAddress}\r\nSubject: Your code\r\nMessage-ID: <gz-1@acme.example>\r\n\r\nYour code is 464646\r\n${'Thanks for using Acme.\r\n'.repeat(200)}`;
    await transport().sendMail({
      envelope: { from: 'a@acme.example', to: [session.inboxAddress!] },
      raw,
    });
    const [row] = await t.app.db.orm.em
      .fork()
      .execute<{ id: string; raw_body: Buffer; size_bytes: number }[]>(
        'select id, raw_body, size_bytes from inbound_message where session_id = ?',
        [session.id],
      );
    expect(row!.size_bytes).toBe(Buffer.byteLength(raw));
    // Compressed: the repeated line makes the stored body far smaller than the message.
    expect(row!.raw_body.length).toBeLessThan(row!.size_bytes / 5);
    const opened = t.app.challenges.sealer.open(row!.raw_body, row!.id);
    expect(gunzipSync(opened).toString('utf8')).toBe(raw);
  });
});
