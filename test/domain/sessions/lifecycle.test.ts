/**
 * The challenge-session state table (service-interface.md, States and transitions → Challenge
 * session), transition by transition, through the domain operations the faces call.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { closeSession } from '../../../src/domain/sessions/close.ts';
import { openSession } from '../../../src/domain/sessions/open.ts';
import { listSessions, readSession } from '../../../src/domain/sessions/read.ts';
import { rerouteSession } from '../../../src/domain/sessions/reroute.ts';
import { sweepOnce } from '../../../src/domain/sweeper.ts';
import { waitForVerdict } from '../../../src/domain/verdicts/wait.ts';
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
  t = await startChallengeApp({ env: { SESSION_TTL: '900', NUMBER_QUARANTINE: '600' } });
});
afterAll(() => t?.stop());

const numberHolder = async (e164: string) => {
  const [row] = await t.app.db.orm.em
    .fork()
    .execute<{ held_by: string | null; available_at: string }[]>(
      'select held_by, available_at from phone_number where e164 = ?',
      [e164],
    );
  return { heldBy: row!.held_by, availableAt: new Date(row!.available_at) };
};

describe('(none) → active: open', () => {
  test('an sms_otp session gets a US number in E.164, records its agent, and expires after SESSION_TTL', async () => {
    const clock = new TestClock();
    const principal = principalFor(await createAccount(t.app), { kind: 'agent' });
    const session = await openSession(ctxOf(t.app, clock), principal, { channel: 'sms_otp' });
    expect(session.id).toMatch(/^ses_/);
    expect(session.state).toBe('active');
    expect(session.channel).toBe('sms_otp');
    expect(session.number).toMatch(/^\+1[2-9]\d{2}55501\d{2}$/);
    expect(session.numberType).toBe('synthetic');
    expect(session.inboxAddress).toBeNull();
    expect(session.agentId).toBe(principal.agentId);
    expect(session.expiresAt.getTime()).toBe(clock.current.getTime() + 900_000);
    expect(session.nextStep).toContain(session.number!);
    expect((await numberHolder(session.number!)).heldBy).toBe(session.id);
  });

  test('channel defaults to sms_otp', async () => {
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app), principal);
    expect(session.channel).toBe('sms_otp');
    expect(session.number).not.toBeNull();
  });

  test.each(['email_otp', 'magic_link'] as const)(
    'a %s session gets an unguessable inbox at INBOUND_EMAIL_DOMAIN and no number',
    async (channel) => {
      const principal = principalFor(await createAccount(t.app));
      const a = await openSession(ctxOf(t.app), principal, { channel });
      const b = await openSession(ctxOf(t.app), principal, { channel });
      expect(a.inboxAddress).toMatch(/^[a-z2-7]{24}@inbox\.localhost$/);
      expect(b.inboxAddress).not.toBe(a.inboxAddress);
      expect(a.number).toBeNull();
      expect(a.nextStep).toContain(a.inboxAddress!);
    },
  );

  test('the target is kept as its host and registrable domain', async () => {
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app), principal, {
      target: 'https://Login.Example.co.uk/signin?x=1',
    });
    expect(session.target).toBe('login.example.co.uk');
    expect(session.targetDomain).toBe('example.co.uk');
  });

  test('malformed input is invalid_request and opens nothing', async () => {
    const principal = principalFor(await createAccount(t.app));
    for (const input of [
      { channel: 'voice' },
      { channel: 'email_otp', numberType: 'synthetic' },
      { target: '' },
      { unknown: true },
    ]) {
      const error = await rejectionOf(openSession(ctxOf(t.app), principal, input as never));
      expect(error.code).toBe('invalid_request');
    }
    expect((await listSessions(ctxOf(t.app), principal)).sessions).toEqual([]);
  });
});

describe('read and list', () => {
  test("another account's session is not_found", async () => {
    const owner = principalFor(await createAccount(t.app));
    const stranger = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app), owner);
    expect((await readSession(ctxOf(t.app), owner, session.id)).id).toBe(session.id);
    expect((await rejectionOf(readSession(ctxOf(t.app), stranger, session.id))).code).toBe(
      'not_found',
    );
  });

  test('list shows only the account’s unexpired active sessions, in order, paged with after and hasMore', async () => {
    const clock = new TestClock();
    const accountId = await createAccount(t.app);
    const agent = principalFor(accountId);
    const otherKey = principalFor(accountId);
    const opened = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1);
      opened.push(await openSession(ctxOf(t.app, clock), i % 2 ? otherKey : agent));
    }
    await openSession(ctxOf(t.app, clock), principalFor(await createAccount(t.app)));
    await closeSession(ctxOf(t.app, clock), agent, opened[2]!.id);

    const first = await listSessions(ctxOf(t.app, clock), agent, { limit: 2 });
    expect(first.sessions.map((s) => s.id)).toEqual([opened[0]!.id, opened[1]!.id]);
    expect(first.hasMore).toBe(true);
    const second = await listSessions(ctxOf(t.app, clock), agent, {
      limit: 2,
      after: first.sessions[1]!.id,
    });
    expect(second.sessions.map((s) => s.id)).toEqual([opened[3]!.id, opened[4]!.id]);
    expect(second.hasMore).toBe(false);

    clock.advance(900 - 3);
    const later = await listSessions(ctxOf(t.app, clock), agent);
    expect(later.sessions.map((s) => s.id)).toEqual([opened[3]!.id, opened[4]!.id]);
  });

  test('an unknown after cursor is invalid_request, not an empty page', async () => {
    const principal = principalFor(await createAccount(t.app));
    const error = await rejectionOf(listSessions(ctxOf(t.app), principal, { after: 'ses_nope' }));
    expect(error.code).toBe('invalid_request');
  });
});

describe('active → completed: close', () => {
  test('closing releases the number (a synthetic one at once, issue 16) and is idempotent', async () => {
    const clock = new TestClock();
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app, clock), principal);
    clock.advance(10);
    const closed = await closeSession(ctxOf(t.app, clock), principal, session.id);
    expect(closed.status).toBe('completed');
    expect(closed.session.state).toBe('completed');
    expect(closed.session.endedAt).toEqual(clock.now());
    const number = await numberHolder(session.number!);
    expect(number.heldBy).toBeNull();
    // Synthetic: no rest (programmable numbers rest: test/domain/numbers/pool.test.ts).
    expect(number.availableAt.getTime()).toBe(clock.current.getTime());

    const again = await closeSession(ctxOf(t.app, clock), principal, session.id);
    expect(again.status).toBe('completed');
    expect(again.session.endedAt).toEqual(closed.session.endedAt);
  });

  test('a closed session refuses wait and reroute with session_closed', async () => {
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app), principal);
    await closeSession(ctxOf(t.app), principal, session.id);
    const wait = await rejectionOf(
      waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 1 }),
    );
    expect(wait).toMatchObject({ code: 'session_closed', status: 409 });
    const reroute = await rejectionOf(rerouteSession(ctxOf(t.app), principal, session.id));
    expect(reroute.code).toBe('session_closed');
  });

  test("closing another account's session is not_found and closes nothing", async () => {
    const owner = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app), owner);
    const error = await rejectionOf(
      closeSession(ctxOf(t.app), principalFor(await createAccount(t.app)), session.id),
    );
    expect(error.code).toBe('not_found');
    expect((await readSession(ctxOf(t.app), owner, session.id)).state).toBe('active');
  });
});

describe('active → active: wait timeout', () => {
  test('a wait that times out answers the timeout result and leaves the session active', async () => {
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app), principal);
    const started = Date.now();
    const result = await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 0.3 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(result).toEqual({
      verdict: 'timeout',
      sessionId: session.id,
      receivedAt: null,
      nextStep: expect.stringContaining('reroute'),
    });
    expect((await readSession(ctxOf(t.app), principal, session.id)).state).toBe('active');
  });
});

describe('active → active (new number): reroute', () => {
  test('the session keeps its id, gets a new number and expiry; the old number rests in quarantine', async () => {
    const clock = new TestClock();
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app, clock), principal);
    clock.advance(120);
    const { session: moved, previousNumber } = await rerouteSession(
      ctxOf(t.app, clock),
      principal,
      session.id,
    );
    expect(moved.id).toBe(session.id);
    expect(moved.state).toBe('active');
    expect(previousNumber).toBe(session.number);
    expect(moved.number).not.toBe(session.number);
    expect(moved.rerouteCount).toBe(1);
    expect(moved.expiresAt.getTime()).toBe(clock.current.getTime() + 900_000);
    expect(await numberHolder(moved.number!)).toMatchObject({ heldBy: session.id });
    const old = await numberHolder(session.number!);
    expect(old.heldBy).toBeNull();
    expect(old.availableAt.getTime()).toBe(clock.current.getTime() + 600_000);
  });

  test('only sms_otp sessions can be rerouted', async () => {
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app), principal, { channel: 'email_otp' });
    const error = await rejectionOf(rerouteSession(ctxOf(t.app), principal, session.id));
    expect(error.code).toBe('invalid_request');
  });
});

describe('active → expired: expires_at passes', () => {
  test('past expires_at the session reads expired, leaves the list, and refuses wait, close and reroute', async () => {
    const clock = new TestClock();
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app, clock), principal);
    clock.advance(900);
    const ctx = () => ctxOf(t.app, clock);
    expect((await readSession(ctx(), principal, session.id)).state).toBe('expired');
    expect((await listSessions(ctx(), principal)).sessions).toEqual([]);
    for (const refused of [
      () => waitForVerdict(ctx(), principal, session.id, { timeout: 1 }),
      () => closeSession(ctx(), principal, session.id),
      () => rerouteSession(ctx(), principal, session.id),
    ]) {
      expect(await rejectionOf(refused())).toMatchObject({ code: 'session_expired', status: 410 });
    }
  });

  test('the sweep makes the expiry durable and frees the number from the moment it expired', async () => {
    const clock = new TestClock();
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app, clock), principal);
    clock.advance(1000);
    const swept = await sweepOnce({ ...t.app.challenges, clock: clock.now });
    expect(swept.expired).toBeGreaterThanOrEqual(1);
    const [row] = await t.app.db.orm.em
      .fork()
      .execute<{ state: string; ended_at: string }[]>(
        'select state, ended_at from challenge_session where id = ?',
        [session.id],
      );
    expect(row!.state).toBe('expired');
    expect(new Date(row!.ended_at)).toEqual(session.expiresAt);
    const number = await numberHolder(session.number!);
    expect(number.heldBy).toBeNull();
    // Synthetic: no rest after the expiry (programmable numbers: test/domain/numbers/pool.test.ts).
    expect(number.availableAt.getTime()).toBe(session.expiresAt.getTime());
    // A second sweep finds nothing more to do for it.
    const again = await sweepOnce({ ...t.app.challenges, clock: clock.now });
    expect(again.expired).toBe(0);
  });

  test('a session expiring while a caller waits ends the wait with session_expired', async () => {
    const principal = principalFor(await createAccount(t.app));
    const clock = new TestClock();
    const session = await openSession(ctxOf(t.app, clock), principal);
    clock.advance(900 - 0.2);
    const error = await rejectionOf(
      waitForVerdict(ctxOf(t.app, clock), principal, session.id, { timeout: 5 }),
    );
    expect(error.code).toBe('session_expired');
  });
});
