/**
 * Message bodies, codes and links never reach the logs: not on the Twilio webhook, not on the
 * synthetic endpoint's refusal, not over SMTP, at the most verbose log level.
 */
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openSession } from '../../../src/domain/sessions/open.ts';
import { waitForVerdict } from '../../../src/domain/verdicts/wait.ts';
import type { TestApp } from '../../helpers/app.ts';
import {
  createAccount,
  ctxOf,
  postTwilio,
  principalFor,
  startChallengeApp,
} from '../../helpers/challenges.ts';

const lines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await startChallengeApp({ logLines: lines, env: { LOG_LEVEL: 'trace' } });
});
afterAll(() => t?.stop());

test('a delivered SMS and email leave neither body nor code nor link in the logs', async () => {
  const principal = principalFor(await createAccount(t.app));
  const sms = await openSession(ctxOf(t.app), principal);
  const mail = await openSession(ctxOf(t.app), principal, { channel: 'magic_link' });

  const smsBody = 'Secretive Corp: 918405 is your code. Body-marker-alpha.';
  expect((await postTwilio(t.baseUrl, { to: sms.number!, body: smsBody })).status).toBe(200);
  // A refused one too: the error path must not log the body either.
  await postTwilio(t.baseUrl, { to: sms.number!, body: 'Body-marker-beta 112233' }, 'wrong-token');
  await nodemailer
    .createTransport({ host: '127.0.0.1', port: t.app.smtpPort!, secure: false, ignoreTLS: true })
    .sendMail({
      from: 'no-reply@secretive.example',
      to: mail.inboxAddress!,
      subject: 'Body-marker-gamma sign in',
      text: 'Sign in: https://secretive.example/magic?token=LinkMarkerDelta77 (Body-marker-gamma)',
    });
  expect(await waitForVerdict(ctxOf(t.app), principal, sms.id, { timeout: 2 })).toMatchObject({
    otpCode: '918405',
  });
  expect(await waitForVerdict(ctxOf(t.app), principal, mail.id, { timeout: 2 })).toMatchObject({
    magicLink: 'https://secretive.example/magic?token=LinkMarkerDelta77',
  });

  expect(lines.length).toBeGreaterThan(3);
  const all = lines.join('\n');
  for (const secret of [
    '918405',
    'Body-marker-alpha',
    'Body-marker-beta',
    '112233',
    'Body-marker-gamma',
    'LinkMarkerDelta77',
  ]) {
    expect(all).not.toContain(secret);
  }
});
