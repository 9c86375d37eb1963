/**
 * Operators follow a session in the logs: one structured line per state change (opened, rerouted,
 * closed, expired) and per verdict (reached when a message yields it, delivered to a waiter, or a
 * wait's timeout), each naming the session, and none carrying the code or the message.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { closeSession } from '../../src/domain/sessions/close.ts';
import { expireDueSessions } from '../../src/domain/sessions/expire.ts';
import { openSession } from '../../src/domain/sessions/open.ts';
import { rerouteSession } from '../../src/domain/sessions/reroute.ts';
import { waitForVerdict } from '../../src/domain/verdicts/wait.ts';
import type { TestApp } from '../helpers/app.ts';
import {
  createAccount,
  ctxOf,
  postTwilio,
  principalFor,
  startChallengeApp,
  TestClock,
} from '../helpers/challenges.ts';

const logLines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await startChallengeApp({ logLines });
});
afterAll(() => t?.stop());

interface LogLine {
  level: number;
  msg: string;
  sessionId?: string;
  state?: string;
  verdict?: string;
  verdictId?: string;
}
const INFO = 30;
const linesOf = (sessionId: string) =>
  logLines
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.sessionId === sessionId)
    .map(({ level, msg, state, verdict, verdictId }) => ({
      level,
      msg,
      ...(state ? { state } : {}),
      ...(verdict ? { verdict } : {}),
      ...(verdictId ? { verdictId: verdictId.slice(0, 4) } : {}),
    }));

test('a session’s life reads as one line per state change and per verdict, without its code', async () => {
  const principal = principalFor(await createAccount(t.app));
  const session = await openSession(ctxOf(t.app), principal);
  const rerouted = await rerouteSession(ctxOf(t.app), principal, session.id);
  const number = rerouted.session.number!;
  const body = 'Log-marker-body: your Example code is 640917';
  expect((await postTwilio(t.baseUrl, { to: number, body })).status).toBe(200);
  expect(await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 5 })).toMatchObject({
    verdict: 'otp_code',
    otpCode: '640917',
  });
  expect(await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 1 })).toMatchObject({
    verdict: 'timeout',
  });
  await closeSession(ctxOf(t.app), principal, session.id);

  expect(linesOf(session.id)).toEqual([
    { level: INFO, msg: 'session opened', state: 'active' },
    { level: INFO, msg: 'session rerouted', state: 'active' },
    { level: INFO, msg: 'verdict reached', verdict: 'otp_code', verdictId: 'vrd_' },
    { level: INFO, msg: 'verdict delivered', verdict: 'otp_code', verdictId: 'vrd_' },
    { level: INFO, msg: 'verdict delivered', verdict: 'timeout' },
    { level: INFO, msg: 'session closed', state: 'completed' },
  ]);
  const all = logLines.join('\n');
  expect(all).not.toContain('640917');
  expect(all).not.toContain('Log-marker-body');
});

test('a session that runs out of time logs its expiry', async () => {
  const principal = principalFor(await createAccount(t.app));
  const session = await openSession(ctxOf(t.app), principal, { channel: 'email_otp' });
  const clock = new TestClock();
  clock.advance(24 * 3600);
  expect(await expireDueSessions(ctxOf(t.app, clock))).toBeGreaterThan(0);
  expect(linesOf(session.id)).toEqual([
    { level: INFO, msg: 'session opened', state: 'active' },
    { level: INFO, msg: 'session expired', state: 'expired' },
  ]);
});
