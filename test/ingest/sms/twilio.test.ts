/**
 * Twilio's inbound webhook at the HTTP level: signature per Twilio's algorithm (403 and nothing
 * stored on a mismatch), the TwiML acknowledgement after commit, idempotency on MessageSid, and
 * the code delivered to a waiting agent.
 */
import twilioWebhooks from 'twilio/lib/webhooks/webhooks.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openSession } from '../../../src/domain/sessions/open.ts';
import { rerouteSession } from '../../../src/domain/sessions/reroute.ts';
import { waitForVerdict } from '../../../src/domain/verdicts/wait.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import {
  countRows,
  createAccount,
  ctxOf,
  postTwilio,
  principalFor,
  startChallengeApp,
  TWILIO_TOKEN,
  twilioParams,
  watching,
} from '../../helpers/challenges.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startChallengeApp();
});
afterAll(() => t?.stop());

async function openFor() {
  const principal = principalFor(await createAccount(t.app));
  const session = await openSession(ctxOf(t.app), principal);
  return { principal, session };
}

describe('POST /ingest/sms/twilio', () => {
  test('a signed message is acknowledged with TwiML and its code delivered to the waiting agent', async () => {
    const { principal, session } = await openFor();
    const ready = watching(t.app, session.number!);
    const waiting = waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 10 });
    await ready;
    const sent = Date.now();
    const response = await postTwilio(t.baseUrl, {
      to: session.number!,
      from: '+18005550199',
      body: 'Your Acme code is 740392. Never share it.',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/xml/);
    expect(await response.text()).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response></Response>',
    );
    expect(await waiting).toMatchObject({
      verdict: 'otp_code',
      otpCode: '740392',
      from: '+18005550199',
      sessionId: session.id,
    });
    expect(Date.now() - sent).toBeLessThan(3000);
  });

  test.each([
    ['a signature made with another token', { token: 'not-the-right-token' }],
    ['a signature over other parameters', { tamper: true }],
    ['no signature at all', { omit: true }],
  ])('%s is refused with 403 and nothing is stored', async (_name, how) => {
    const { session } = await openFor();
    const before = await countRows(t.app, 'inbound_message');
    let response: Response;
    if ('omit' in how) {
      response = await fetch(`${t.baseUrl}/ingest/sms/twilio`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(
          twilioParams({ to: session.number!, body: 'code 111111' }),
        ).toString(),
      });
    } else if ('tamper' in how) {
      const signed = twilioParams({ to: session.number!, body: 'code 111111' });
      const signature = twilioWebhooks.getExpectedTwilioSignature(
        TWILIO_TOKEN,
        `${t.baseUrl}/ingest/sms/twilio`,
        signed,
      );
      response = await fetch(`${t.baseUrl}/ingest/sms/twilio`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': signature,
        },
        body: new URLSearchParams({ ...signed, Body: 'code 999999' }).toString(),
      });
    } else {
      response = await postTwilio(
        t.baseUrl,
        { to: session.number!, body: 'code 111111' },
        how.token,
      );
    }
    expect(response.status).toBe(403);
    expect((await response.json()).code).toBe('forbidden');
    expect(await countRows(t.app, 'inbound_message')).toBe(before);
  });

  test('a repeated MessageSid is acknowledged again and stored once', async () => {
    const { principal, session } = await openFor();
    const sms = {
      to: session.number!,
      body: 'Your code is 303030',
      sid: 'SM0123456789abcdef0123456789abcdef',
    };
    const responses = await Promise.all([postTwilio(t.baseUrl, sms), postTwilio(t.baseUrl, sms)]);
    const again = await postTwilio(t.baseUrl, sms);
    for (const response of [...responses, again]) expect(response.status).toBe(200);
    expect(await countRows(t.app, 'inbound_message', 'session_id = ?', [session.id])).toBe(1);
    expect(await countRows(t.app, 'verdict', 'session_id = ?', [session.id])).toBe(1);
    expect(await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 1 })).toMatchObject(
      {
        otpCode: '303030',
      },
    );
    expect(
      (await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 0.2 })).verdict,
    ).toBe('timeout');
  });

  test('a late message to a number released by a reroute is acknowledged, kept unrouted, and reaches no one', async () => {
    const { principal, session } = await openFor();
    await rerouteSession(ctxOf(t.app), principal, session.id);
    const response = await postTwilio(t.baseUrl, {
      to: session.number!,
      body: 'Your code is 515151',
    });
    expect(response.status).toBe(200);
    expect(
      await countRows(t.app, 'inbound_message', 'to_address = ? and session_id is null', [
        session.number,
      ]),
    ).toBe(1);
    expect(
      (await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 0.3 })).verdict,
    ).toBe('timeout');
  });

  test('a body without the Twilio fields is invalid_request once the signature holds', async () => {
    const params = { Body: 'hello' };
    const response = await fetch(`${t.baseUrl}/ingest/sms/twilio`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioWebhooks.getExpectedTwilioSignature(
          TWILIO_TOKEN,
          `${t.baseUrl}/ingest/sms/twilio`,
          params,
        ),
      },
      body: new URLSearchParams(params).toString(),
    });
    expect(response.status).toBe(400);
    expect((await response.json()).code).toBe('invalid_request');
  });
});

test('without TWILIO_AUTH_TOKEN the webhook does not exist', async () => {
  const plain = await startTestApp();
  try {
    const response = await postTwilio(plain.baseUrl, { to: '+12025550100', body: 'x' });
    expect(response.status).toBe(404);
  } finally {
    await plain.stop();
  }
});
