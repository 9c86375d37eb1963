/**
 * The one ingest path: binding at receipt, unrouted messages, late messages after a reroute or a
 * release, storage once per carrier id, sealing at rest, retention, and the verdict outbox.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listMessages } from '../../../src/domain/messages/list.ts';
import { type InboundMessage, receiveMessage } from '../../../src/domain/messages/receive.ts';
import { closeSession } from '../../../src/domain/sessions/close.ts';
import { openSession } from '../../../src/domain/sessions/open.ts';
import { rerouteSession } from '../../../src/domain/sessions/reroute.ts';
import { sweepOnce } from '../../../src/domain/sweeper.ts';
import { waitForVerdict } from '../../../src/domain/verdicts/wait.ts';
import { LocalWaiter, WaiterRegistry } from '../../../src/domain/verdicts/waiters.ts';
import { extractFromEmail, extractFromSms } from '../../../src/extract/index.ts';
import type { TestApp } from '../../helpers/app.ts';
import {
  countRows,
  createAccount,
  ctxOf,
  principalFor,
  rejectionOf,
  startChallengeApp,
  TestClock,
  watching,
} from '../../helpers/challenges.ts';
import { interceptPoolQueries } from '../../helpers/pool-queries.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startChallengeApp({ env: { MESSAGE_RETENTION: '3600' } });
});
afterAll(() => t?.stop());

const sms = (to: string, body: string, extra: Partial<InboundMessage> = {}, clock?: TestClock) =>
  receiveMessage(ctxOf(t.app, clock), {
    medium: 'sms',
    carrier: 'twilio',
    to,
    from: '+14155550100',
    extraction: extractFromSms({ text: body }),
    raw: Buffer.from(body),
    ...extra,
  });

const messageRow = async (id: string) => {
  const [row] = await t.app.db.orm.em
    .fork()
    .execute<{ session_id: string | null; raw_body: Buffer | null; outcome: string }[]>(
      'select session_id, raw_body, outcome from inbound_message where id = ?',
      [id],
    );
  return row!;
};

describe('binding at receipt', () => {
  test('a message to a number nobody holds is stored unrouted and delivered to no one', async () => {
    const result = await sms('+12125550199', 'Your code is 555123');
    expect(result).toMatchObject({ sessionId: null, verdictId: null, duplicate: false });
    expect((await messageRow(result.messageId)).session_id).toBeNull();
    expect(await countRows(t.app, 'verdict', 'message_id = ?', [result.messageId])).toBe(0);
  });

  test('after a reroute, a late message to the old number reaches no one, the new number reaches the session', async () => {
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app), principal);
    const { session: moved } = await rerouteSession(ctxOf(t.app), principal, session.id);
    const late = await sms(session.number!, 'Your code is 999000');
    expect(late.sessionId).toBeNull();
    const waited = await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 0.3 });
    expect(waited.verdict).toBe('timeout');
    const onTime = await sms(moved.number!, 'Your code is 999111');
    expect(onTime.sessionId).toBe(session.id);
    expect(await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 1 })).toMatchObject(
      { otpCode: '999111' },
    );
  });

  test('after a close, a late message reaches no one — neither the closed session nor the next holder', async () => {
    const clock = new TestClock(new Date(Date.now() + 3 * 86_400_000));
    const accountId = await createAccount(t.app);
    const first = principalFor(accountId);
    const session = await openSession(ctxOf(t.app, clock), first);
    await closeSession(ctxOf(t.app, clock), first, session.id);
    // Everyone else opening now gets other numbers: the released one rests in quarantine.
    const others = await Promise.all(
      Array.from({ length: 20 }, () => openSession(ctxOf(t.app, clock), principalFor(accountId))),
    );
    expect(others.map((s) => s.number)).not.toContain(session.number);
    clock.advance(60);
    const late = await sms(session.number!, 'Your code is 424242', {}, clock);
    expect(late.sessionId).toBeNull();
  });

  test('a message to an expired session is unrouted even before the sweep', async () => {
    const clock = new TestClock();
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app, clock), principal, { channel: 'email_otp' });
    clock.advance(901);
    const result = await receiveMessage(ctxOf(t.app, clock), {
      medium: 'email',
      carrier: 'smtp',
      to: session.inboxAddress!,
      from: 'a@b.example',
      extraction: extractFromEmail({ text: 'code 314159' }),
      raw: Buffer.from('x'),
    });
    expect(result.sessionId).toBeNull();
  });

  test('a synthetic delivery only reaches a synthetic number held by the given account', async () => {
    const owner = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app), owner);
    const stranger = await createAccount(t.app);
    const before = await countRows(t.app, 'inbound_message');
    const error = await rejectionOf(
      sms(session.number!, 'code 111222', { carrier: 'synthetic', onlyForAccount: stranger }),
    );
    expect(error.code).toBe('not_found');
    expect(await countRows(t.app, 'inbound_message')).toBe(before);
    const ok = await sms(session.number!, 'code 111222', {
      carrier: 'synthetic',
      onlyForAccount: owner.accountId,
    });
    expect(ok.sessionId).toBe(session.id);
  });
});

describe('storage', () => {
  test('a repeated carrier id is stored once and yields one verdict', async () => {
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app), principal);
    const results = await Promise.all(
      Array.from({ length: 3 }, () =>
        sms(session.number!, 'Your code is 868686', { externalId: 'SMrepeat-868686' }),
      ),
    );
    expect(new Set(results.map((r) => r.messageId)).size).toBe(1);
    expect(results.filter((r) => !r.duplicate)).toHaveLength(1);
    expect(await countRows(t.app, 'inbound_message', 'session_id = ?', [session.id])).toBe(1);
    expect(await countRows(t.app, 'verdict', 'session_id = ?', [session.id])).toBe(1);
  });

  test('the raw body is sealed at rest and bound to its row; the listing never carries it', async () => {
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app), principal);
    const body = 'Acme: 271828 is your code. Do not share it.';
    const result = await sms(session.number!, body);
    const row = await messageRow(result.messageId);
    expect(row.raw_body).toBeInstanceOf(Buffer);
    expect(row.raw_body!.includes(Buffer.from('271828'))).toBe(false);
    expect(row.raw_body!.includes(Buffer.from('Acme'))).toBe(false);
    const sealer = t.app.challenges.sealer;
    expect(sealer.open(row.raw_body!, result.messageId).toString()).toBe(body);
    expect(() => sealer.open(row.raw_body!, 'msg_another')).toThrow();

    const [verdict] = await t.app.db.orm.em
      .fork()
      .execute<{ secret: Buffer }[]>('select secret from verdict where id = ?', [result.verdictId]);
    expect(verdict!.secret.includes(Buffer.from('271828'))).toBe(false);

    const listing = await listMessages(ctxOf(t.app), principal, session.id, {}, { reveal: true });
    expect(JSON.stringify(listing)).not.toContain('Do not share');
    expect(Object.keys(listing.messages[0]!).sort()).toEqual(
      [
        'carrier',
        'codesHidden',
        'from',
        'id',
        'medium',
        'outcome',
        'receivedAt',
        'rejected',
        'sender',
        'sessionId',
        'to',
        'verdict',
      ].sort(),
    );
  });

  test('past MESSAGE_RETENTION the sweep erases raw bodies and parsed codes, keeping the metadata', async () => {
    const clock = new TestClock();
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app, clock), principal);
    const result = await sms(session.number!, 'Your code is 161803', {}, clock);
    clock.advance(3599);
    await sweepOnce({ ...t.app.challenges, clock: clock.now });
    expect((await messageRow(result.messageId)).raw_body).not.toBeNull();
    clock.advance(1);
    await sweepOnce({ ...t.app.challenges, clock: clock.now });
    const row = await messageRow(result.messageId);
    expect(row.raw_body).toBeNull();
    expect(row.outcome).toBe('otp_code');
    const listing = await listMessages(
      ctxOf(t.app, clock),
      principal,
      session.id,
      {},
      {
        reveal: true,
      },
    );
    expect(listing.messages[0]!.verdict).toMatchObject({ kind: 'otp_code', otpCode: null });
  });
});

describe('hand-off to a waiter on this instance', () => {
  test('the verdict is stored already consumed by the waiting caller and needs no announcement', async () => {
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app), principal);
    const ready = watching(t.app, session.number!);
    const waiting = waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 5 });
    await ready;
    const stored = await sms(session.number!, 'Your code is 577215');
    expect(await waiting).toMatchObject({ verdict: 'otp_code', otpCode: '577215' });
    const [row] = await t.app.db.orm.em
      .fork()
      .execute<{ consumed_by: string; consumed_at: string; published_at: string }[]>(
        'select consumed_by, consumed_at, published_at from verdict where id = ?',
        [stored.verdictId],
      );
    expect(row!.consumed_by).toMatch(new RegExp(`^wait:${principal.credentialId}:`));
    expect(row!.consumed_at).not.toBeNull();
    expect(row!.published_at).not.toBeNull();
  });

  test('a claim whose waiter finished meanwhile is given back, and the next waiter gets the code', async () => {
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app), principal);
    const registry = new WaiterRegistry();
    const handedOver: unknown[] = [];
    const gone = new LocalWaiter(session.id, principal.credentialId, (v) => handedOver.push(v));
    registry.enter(gone);
    registry.watch(gone, session.number!);
    const base = { ...ctxOf(t.app), waiters: registry };
    // The waiter times out while the message's statement (which claims for it) runs.
    const claimedFor: unknown[] = [];
    const restore = await interceptPoolQueries(base.em, (values) => {
      claimedFor.push(...values.filter((p) => p === gone.consumer));
      registry.leave(gone);
    });
    const stored = await receiveMessage(base, {
      medium: 'sms',
      carrier: 'twilio',
      to: session.number!,
      from: '+14155550100',
      extraction: extractFromSms({ text: 'Your code is 141592' }),
      raw: Buffer.from('x'),
    }).finally(restore);
    expect(claimedFor).toEqual([gone.consumer]);
    expect(handedOver).toEqual([]);
    expect(
      await countRows(t.app, 'verdict', 'id = ? and consumed_at is null and consumed_by is null', [
        stored.verdictId,
      ]),
    ).toBe(1);
    expect(await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 1 })).toMatchObject(
      {
        otpCode: '141592',
      },
    );
  });
});

describe('the verdict outbox', () => {
  test('a verdict whose event could not be published is committed all the same, then announced by the sweep', async () => {
    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app), principal);
    const ready = watching(t.app, session.number!);
    const waiting = waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 10 });
    await ready;
    // The event target refuses (Redis down, or the process dies right after the commit).
    const failing = {
      ...t.app.challenges.events,
      publish: async () => {
        throw new Error('event target unavailable');
      },
    };
    // Received on another instance: its own waiter registry, so no hand-off to our waiter.
    const stored = await receiveMessage(
      { ...ctxOf(t.app), events: failing, waiters: new WaiterRegistry() },
      {
        medium: 'sms',
        carrier: 'twilio',
        to: session.number!,
        from: '+14155550100',
        extraction: extractFromSms({ text: 'Your code is 662607' }),
        raw: Buffer.from('x'),
      },
    );
    expect(stored.sessionId).toBe(session.id);
    expect(
      await countRows(t.app, 'verdict', 'id = ? and published_at is null', [stored.verdictId]),
    ).toBe(1);

    const later = new Date(Date.now() + 6000);
    const swept = await sweepOnce({ ...t.app.challenges, clock: () => later });
    expect(swept.relayed).toBeGreaterThanOrEqual(1);
    expect(await waiting).toMatchObject({ verdict: 'otp_code', otpCode: '662607' });
    expect(
      await countRows(t.app, 'verdict', 'id = ? and published_at is not null', [stored.verdictId]),
    ).toBe(1);
  });
});
