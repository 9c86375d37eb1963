/**
 * Billing and usage: one usage event per open and per reroute; billable once the session yields a
 * code or link; not billed when it ends without one (close, expiry; a wait timeout changes
 * nothing); a failed assignment records nothing. Summaries per tier, in integer cents.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Principal } from '../../../src/auth/principal.ts';
import { receiveMessage } from '../../../src/domain/messages/receive.ts';
import { closeSession } from '../../../src/domain/sessions/close.ts';
import { openSession } from '../../../src/domain/sessions/open.ts';
import { rerouteSession } from '../../../src/domain/sessions/reroute.ts';
import { sweepOnce } from '../../../src/domain/sweeper.ts';
import { setEnterprisePricing } from '../../../src/domain/usage/pricing.ts';
import { listUsage, usageSummary } from '../../../src/domain/usage/queries.ts';
import { waitForVerdict } from '../../../src/domain/verdicts/wait.ts';
import { extractFromSms } from '../../../src/extract/index.ts';
import type { TestApp } from '../../helpers/app.ts';
import {
  createAccount,
  ctxOf,
  principalFor,
  rejectionOf,
  startChallengeApp,
  TestClock,
} from '../../helpers/challenges.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startChallengeApp({ env: { FREE_TIER_MONTHLY_SESSIONS: '5' } });
});
afterAll(() => t?.stop());

const code = (clock: TestClock, to: string, body = 'Your code is 428571') =>
  receiveMessage(ctxOf(t.app, clock), {
    medium: 'sms',
    carrier: 'synthetic',
    to,
    from: '+14155550100',
    extraction: extractFromSms({ text: body }),
    raw: Buffer.from(body),
  });

const statuses = async (principal: Principal, clock: TestClock) =>
  (await listUsage(ctxOf(t.app, clock), principal)).events.map((e) => [e.kind, e.status]);

describe('usage events', () => {
  test('an open that yields a code is billable', async () => {
    const clock = new TestClock();
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app, clock), principal);
    expect(await statuses(principal, clock)).toEqual([['session_opened', 'pending']]);
    await code(clock, session.number!);
    expect(await statuses(principal, clock)).toEqual([['session_opened', 'billable']]);
    await closeSession(ctxOf(t.app, clock), principal, session.id);
    expect(await statuses(principal, clock)).toEqual([['session_opened', 'billable']]);
  });

  test('a session closed without any code is not billed, though a wait timed out on it', async () => {
    const clock = new TestClock();
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app, clock), principal);
    expect(
      (await waitForVerdict(ctxOf(t.app, clock), principal, session.id, { timeout: 0.1 })).verdict,
    ).toBe('timeout');
    await code(clock, session.number!, 'Hello from Acme! Reply STOP to unsubscribe.');
    expect(await statuses(principal, clock)).toEqual([['session_opened', 'pending']]);
    await closeSession(ctxOf(t.app, clock), principal, session.id);
    expect(await statuses(principal, clock)).toEqual([['session_opened', 'not_billed']]);
  });

  test('a session that expires without any code is not billed', async () => {
    const clock = new TestClock();
    const principal = principalFor(await createAccount(t.app));
    await openSession(ctxOf(t.app, clock), principal);
    clock.advance(901);
    await sweepOnce({ ...t.app.challenges, clock: clock.now });
    expect(await statuses(principal, clock)).toEqual([['session_opened', 'not_billed']]);
  });

  test('a rerouted session that then yields a code bills the open and the reroute', async () => {
    const clock = new TestClock();
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app, clock), principal);
    clock.advance(1);
    const { session: moved } = await rerouteSession(ctxOf(t.app, clock), principal, session.id);
    await code(clock, moved.number!);
    expect(await statuses(principal, clock)).toEqual([
      ['session_opened', 'billable'],
      ['session_rerouted', 'billable'],
    ]);
    // A reroute after the code is billable at once.
    clock.advance(1);
    const again = await rerouteSession(ctxOf(t.app, clock), principal, session.id);
    expect(again.session.rerouteCount).toBe(2);
    expect((await statuses(principal, clock)).at(-1)).toEqual(['session_rerouted', 'billable']);
    await closeSession(ctxOf(t.app, clock), principal, session.id);
  });

  test('a failed assignment records nothing', async () => {
    const tiny = await startChallengeApp({ env: { NUMBER_POOL: '+13035550100' } });
    try {
      const accountId = await createAccount(tiny.app);
      const holder = principalFor(accountId);
      await openSession(ctxOf(tiny.app), holder);
      const principal = principalFor(accountId);
      expect((await rejectionOf(openSession(ctxOf(tiny.app), principal))).code).toBe(
        'no_number_available',
      );
      const { events } = await listUsage(ctxOf(tiny.app), principal);
      expect(events.map((e) => e.credentialId)).toEqual([holder.credentialId]);
      expect(await usageSummary(ctxOf(tiny.app), principal)).toMatchObject({
        sessionsUsed: 1,
        billableSessions: 0,
        amountDueCents: 0,
      });
    } finally {
      await tiny.stop();
    }
  });

  test('the usage list pages with after and hasMore, and filters by period', async () => {
    const clock = new TestClock(new Date('2031-01-31T23:59:00Z'));
    const accountId = await createAccount(t.app);
    const principal = principalFor(accountId);
    const opened = [];
    for (let i = 0; i < 3; i++) {
      opened.push(await openSession(ctxOf(t.app, clock), principal, { channel: 'email_otp' }));
      clock.advance(30);
    }
    const first = await listUsage(ctxOf(t.app, clock), principal, { limit: 2 });
    expect(first.events.map((e) => e.sessionId)).toEqual([opened[0]!.id, opened[1]!.id]);
    expect(first.hasMore).toBe(true);
    const rest = await listUsage(ctxOf(t.app, clock), principal, { after: first.events[1]!.id });
    expect(rest.events.map((e) => e.sessionId)).toEqual([opened[2]!.id]);
    expect(rest.hasMore).toBe(false);
    const january = await listUsage(ctxOf(t.app, clock), principal, { period: '2031-01' });
    expect(january.events).toHaveLength(2);
    const february = await listUsage(ctxOf(t.app, clock), principal, { period: '2031-02' });
    expect(february.events).toHaveLength(1);
    expect(first.events[0]).toMatchObject({
      credentialId: principal.credentialId,
      agentId: principal.agentId,
      channel: 'email_otp',
    });
  });
});

describe('summaries', () => {
  /** Two billable sessions, one pending, one not billed, by two credentials of the account. */
  async function fourSessions(tier: 'free' | 'per_session' | 'enterprise', clock: TestClock) {
    const accountId = await createAccount(t.app, tier);
    const a = principalFor(accountId);
    const b = principalFor(accountId);
    const s1 = await openSession(ctxOf(t.app, clock), a);
    const s2 = await openSession(ctxOf(t.app, clock), b);
    const s3 = await openSession(ctxOf(t.app, clock), a);
    const s4 = await openSession(ctxOf(t.app, clock), a);
    await code(clock, s1.number!);
    await code(clock, s2.number!);
    await closeSession(ctxOf(t.app, clock), a, s4.id);
    /** Closes the three still open: the code-less one is then not billed. */
    const closeRest = async () => {
      for (const [p, session] of [
        [a, s1],
        [b, s2],
        [a, s3],
      ] as const) {
        await closeSession(ctxOf(t.app, clock), p, session.id);
      }
    };
    return { a, b, closeRest };
  }

  test('per_session: 99 cents per billable session', async () => {
    const clock = new TestClock(new Date('2032-05-10T12:00:00Z'));
    const { a, b, closeRest } = await fourSessions('per_session', clock);
    const summary = await usageSummary(ctxOf(t.app, clock), a);
    expect(summary).toMatchObject({
      tier: 'per_session',
      periodStart: new Date('2032-05-01T00:00:00Z'),
      periodEnd: new Date('2032-06-01T00:00:00Z'),
      sessionsUsed: 4,
      billableSessions: 2,
      pendingSessions: 1,
      unbilledSessions: 1,
      includedSessions: 0,
      allowanceRemaining: null,
      unitPriceCents: 99,
      amountDueCents: 198,
      currency: 'USD',
    });
    expect(summary.byCredential).toEqual(
      [
        { credentialId: a.credentialId, sessionsUsed: 3, billableSessions: 1 },
        { credentialId: b.credentialId, sessionsUsed: 1, billableSessions: 1 },
      ].sort((x, y) => (x.credentialId < y.credentialId ? -1 : 1)),
    );
    await closeRest();
    const settled = await usageSummary(ctxOf(t.app, clock), a);
    expect(settled).toMatchObject({ pendingSessions: 0, unbilledSessions: 2, amountDueCents: 198 });
    const earlier = await usageSummary(ctxOf(t.app, clock), a, { period: '2032-04' });
    expect(earlier).toMatchObject({ sessionsUsed: 0, amountDueCents: 0 });
  });

  test('free: nothing is due; the allowance counts every session, billed or not', async () => {
    const clock = new TestClock(new Date('2032-07-10T12:00:00Z'));
    const { a, closeRest } = await fourSessions('free', clock);
    await closeRest();
    expect(await usageSummary(ctxOf(t.app, clock), a)).toMatchObject({
      tier: 'free',
      sessionsUsed: 4,
      billableSessions: 2,
      includedSessions: 5,
      allowanceRemaining: 1,
      unitPriceCents: 0,
      amountDueCents: 0,
    });
  });

  test('enterprise: the account’s own price and included sessions; list price until one is recorded', async () => {
    const clock = new TestClock(new Date('2032-08-10T12:00:00Z'));
    const { a } = await fourSessions('enterprise', clock);
    expect(await usageSummary(ctxOf(t.app, clock), a)).toMatchObject({
      tier: 'enterprise',
      unitPriceCents: 99,
      amountDueCents: 198,
    });
    await setEnterprisePricing(t.app.db.orm.em.fork(), a.accountId, {
      unitPriceCents: 45,
      includedSessions: 1,
    });
    expect(await usageSummary(ctxOf(t.app, clock), a)).toMatchObject({
      tier: 'enterprise',
      billableSessions: 2,
      includedSessions: 1,
      unitPriceCents: 45,
      amountDueCents: 45,
    });
  });

  test('a malformed period is invalid_request', async () => {
    const principal = principalFor(await createAccount(t.app));
    const error = await rejectionOf(usageSummary(ctxOf(t.app), principal, { period: '2032-13' }));
    expect(error.code).toBe('invalid_request');
  });
});
