/**
 * The wire shapes the /v1 and MCP faces send, from real operation results: the session of
 * open_challenge, the verdict and the timeout result of decisions.md, the SMS alias, the renewal
 * result, and message entries without bodies.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { listMessages } from '../../src/domain/messages/list.ts';
import { receiveMessage } from '../../src/domain/messages/receive.ts';
import { openSession } from '../../src/domain/sessions/open.ts';
import { rerouteSession } from '../../src/domain/sessions/reroute.ts';
import { waitForVerdict } from '../../src/domain/verdicts/wait.ts';
import {
  messageWire,
  otpAliasWire,
  renewalWire,
  sessionWire,
  verdictWire,
} from '../../src/domain/wire.ts';
import type { TestApp } from '../helpers/app.ts';
import { createAccount, ctxOf, principalFor, startChallengeApp } from '../helpers/challenges.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startChallengeApp();
});
afterAll(() => t?.stop());

const isoDate = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

test('open_challenge: session_id, channel, agent_id, expires_at, number or inbox_address, next_step', async () => {
  const principal = principalFor(await createAccount(t.app), { kind: 'agent' });
  const sms = sessionWire(await openSession(ctxOf(t.app), principal));
  expect(sms).toEqual({
    session_id: expect.stringMatching(/^ses_/),
    channel: 'sms_otp',
    state: 'active',
    agent_id: principal.agentId,
    expires_at: isoDate,
    created_at: isoDate,
    number: expect.stringMatching(/^\+1\d{10}$/),
    target: null,
    next_step: expect.any(String),
  });
  const email = sessionWire(await openSession(ctxOf(t.app), principal, { channel: 'email_otp' }));
  expect(email).toHaveProperty('inbox_address');
  expect(email).not.toHaveProperty('number');
});

test('a timeout is exactly {session_id, received_at: null, verdict: "timeout", next_step}', async () => {
  const principal = principalFor(await createAccount(t.app));
  const session = await openSession(ctxOf(t.app), principal);
  const result = await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 0 });
  expect(verdictWire(result)).toEqual({
    session_id: session.id,
    received_at: null,
    verdict: 'timeout',
    next_step: expect.any(String),
  });
});

test('a verdict carries session_id, received_at, otp_code, verdict and next_step; the SMS alias its own four', async () => {
  const principal = principalFor(await createAccount(t.app));
  const session = await openSession(ctxOf(t.app), principal);
  await receiveMessage(ctxOf(t.app), {
    medium: 'sms',
    carrier: 'synthetic',
    to: session.number!,
    from: '+14155550100',
    text: 'Your code is 192837',
    raw: Buffer.from('Your code is 192837'),
  });
  const result = await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 1 });
  expect(verdictWire(result)).toEqual({
    session_id: session.id,
    received_at: isoDate,
    verdict: 'otp_code',
    otp_code: '192837',
    webauthn_required: false,
    next_step: expect.any(String),
  });
  if (result.verdict === 'timeout') throw new Error('expected a verdict');
  expect(otpAliasWire(result)).toEqual({
    otp_code: '192837',
    from_number: '+14155550100',
    received_at: isoDate,
    next_step: expect.any(String),
  });
  const { messages } = await listMessages(ctxOf(t.app), principal, session.id);
  expect(messageWire(messages[0]!)).toEqual({
    message_id: expect.stringMatching(/^msg_/),
    session_id: session.id,
    channel: 'sms',
    from: '+14155550100',
    to: session.number,
    received_at: isoDate,
    outcome: 'otp_code',
    otp_code: '192837',
    magic_link: null,
    webauthn_required: false,
    consumed: true,
    codes_hidden: false,
  });
});

test('the renewal result names the new and the previous number', async () => {
  const principal = principalFor(await createAccount(t.app));
  const session = await openSession(ctxOf(t.app), principal);
  const renewal = renewalWire(await rerouteSession(ctxOf(t.app), principal, session.id));
  expect(renewal).toEqual({
    status: 'carrier_retry_required',
    session_id: session.id,
    new_number: expect.stringMatching(/^\+1\d{10}$/),
    previous_number: session.number,
    country: 'US',
    expires_at: isoDate,
    message: expect.any(String),
  });
  expect(renewal.new_number).not.toBe(session.number);
});
