/**
 * Provisioning limits: 50 concurrent active sessions and 60 provisions a minute per credential,
 * exact under concurrency; the free tier's monthly allowance; refusals consume nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { closeSession } from '../../../src/domain/sessions/close.ts';
import { openSession } from '../../../src/domain/sessions/open.ts';
import { rerouteSession } from '../../../src/domain/sessions/reroute.ts';
import type { TestApp } from '../../helpers/app.ts';
import {
  countRows,
  createAccount,
  ctxOf,
  principalFor,
  rejectionOf,
  startChallengeApp,
  TestClock,
} from '../../helpers/challenges.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startChallengeApp({ env: { FREE_TIER_MONTHLY_SESSIONS: '3' } });
});
afterAll(() => t?.stop());

describe('50 concurrent active sessions per credential', () => {
  test('60 concurrent opens on one credential give exactly 50 sessions, no number twice', async () => {
    const principal = principalFor(await createAccount(t.app));
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, () => openSession(ctxOf(t.app), principal)),
    );
    const opened = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(opened).toHaveLength(50);
    expect(new Set(opened.map((s) => s.number)).size).toBe(50);
    expect(refused).toHaveLength(10);
    for (const error of refused) {
      expect(error).toMatchObject({ code: 'session_limit_reached', status: 429 });
      expect(error.retryAfter).toBeGreaterThan(0);
    }
    expect(
      await countRows(t.app, 'challenge_session', "credential_id = ? and state = 'active'", [
        principal.credentialId,
      ]),
    ).toBe(50);
    expect(
      await countRows(t.app, 'usage_event', 'credential_id = ?', [principal.credentialId]),
    ).toBe(50);
    expect(
      await countRows(
        t.app,
        'phone_number',
        'held_by in (select id from challenge_session where credential_id = ?)',
        [principal.credentialId],
      ),
    ).toBe(50);
  });

  test('another credential of the same account has its own 50', async () => {
    const accountId = await createAccount(t.app);
    const first = principalFor(accountId);
    const second = principalFor(accountId);
    await Promise.all(Array.from({ length: 50 }, () => openSession(ctxOf(t.app), first)));
    expect((await rejectionOf(openSession(ctxOf(t.app), first))).code).toBe(
      'session_limit_reached',
    );
    expect((await openSession(ctxOf(t.app), second)).state).toBe('active');
  });

  test('closing a session frees a place', async () => {
    const clock = new TestClock();
    const principal = principalFor(await createAccount(t.app));
    const sessions = [];
    for (let i = 0; i < 50; i++) sessions.push(await openSession(ctxOf(t.app, clock), principal));
    expect((await rejectionOf(openSession(ctxOf(t.app, clock), principal))).code).toBe(
      'session_limit_reached',
    );
    await closeSession(ctxOf(t.app, clock), principal, sessions[0]!.id);
    expect((await openSession(ctxOf(t.app, clock), principal)).state).toBe('active');
  });
});

describe('60 provisions per minute per credential', () => {
  test('the 61st provision within a minute is rate_limited with Retry-After, and refusals count for nothing', async () => {
    const clock = new TestClock();
    const ctx = () => ctxOf(t.app, clock);
    const principal = principalFor(await createAccount(t.app));
    const sessions = await Promise.all(
      Array.from({ length: 50 }, () => openSession(ctx(), principal)),
    );
    clock.advance(10);
    for (const session of sessions.slice(0, 11)) await closeSession(ctx(), principal, session.id);
    // Nine more opens and one reroute: 60 provisions in the minute.
    const more = await Promise.all(Array.from({ length: 9 }, () => openSession(ctx(), principal)));
    await rerouteSession(ctx(), principal, more[0]!.id);
    expect(
      await countRows(t.app, 'usage_event', 'credential_id = ?', [principal.credentialId]),
    ).toBe(60);

    clock.advance(20);
    const refused = await rejectionOf(openSession(ctx(), principal));
    expect(refused).toMatchObject({ code: 'rate_limited', status: 429 });
    // The first 50 were provisioned 30 s ago: one leaves the window in 30 s.
    expect(refused.retryAfter).toBe(30);
    expect((await rejectionOf(rerouteSession(ctx(), principal, more[1]!.id))).code).toBe(
      'rate_limited',
    );
    expect(
      await countRows(t.app, 'usage_event', 'credential_id = ?', [principal.credentialId]),
    ).toBe(60);

    clock.advance(30);
    expect((await openSession(ctx(), principal)).state).toBe('active');
  });
});

describe('free tier allowance', () => {
  test('a free account may provision FREE_TIER_MONTHLY_SESSIONS sessions a month, reroutes included', async () => {
    const clock = new TestClock(new Date('2030-03-31T23:00:00Z'));
    const ctx = () => ctxOf(t.app, clock);
    const accountId = await createAccount(t.app, 'free');
    const principal = principalFor(accountId);
    const first = await openSession(ctx(), principal);
    await rerouteSession(ctx(), principal, first.id);
    await openSession(ctx(), principalFor(accountId));
    const refused = await rejectionOf(openSession(ctx(), principal));
    expect(refused).toMatchObject({ code: 'allowance_exhausted', status: 402, retryAfter: 3600 });
    expect((await rejectionOf(rerouteSession(ctx(), principal, first.id))).code).toBe(
      'allowance_exhausted',
    );
    clock.advance(3600);
    expect((await openSession(ctx(), principal)).state).toBe('active');
  });
});

describe('unsupported targets', () => {
  test('an identity provider, a payment processor or a bank is refused and consumes nothing', async () => {
    const principal = principalFor(await createAccount(t.app));
    for (const [target, category] of [
      ['accounts.google.com', 'identity_provider'],
      ['https://dashboard.stripe.com/login', 'payment_processor'],
      ['secure.chase.com', 'bank'],
    ] as const) {
      const error = await rejectionOf(openSession(ctxOf(t.app), principal, { target }));
      expect(error).toMatchObject({ code: 'unsupported_target', status: 422 });
      expect(error.extra).toMatchObject({ category });
    }
    expect(
      await countRows(t.app, 'usage_event', 'credential_id = ?', [principal.credentialId]),
    ).toBe(0);
    expect(
      await countRows(t.app, 'challenge_session', 'credential_id = ?', [principal.credentialId]),
    ).toBe(0);
  });

  test('a look-alike of a refused domain is allowed', async () => {
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app), principal, {
      target: 'google.com.example.net',
    });
    expect(session.targetDomain).toBe('example.net');
  });
});
