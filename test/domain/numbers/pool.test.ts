/**
 * The number pool: configuration syntax, atomic assignment, quarantine after release (programmable
 * numbers only), failed
 * assignments that consume nothing, and the programmable/synthetic choice.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { receiveMessage } from '../../../src/domain/messages/receive.ts';
import { ASSIGN_NUMBER_SQL, syncNumberPool } from '../../../src/domain/numbers/pool.ts';
import { DEFAULT_SYNTHETIC_POOL, parsePoolSpec } from '../../../src/domain/numbers/pool-spec.ts';
import { closeSession } from '../../../src/domain/sessions/close.ts';
import { expireDueSessions } from '../../../src/domain/sessions/expire.ts';
import { openSession } from '../../../src/domain/sessions/open.ts';
import { rerouteSession } from '../../../src/domain/sessions/reroute.ts';
import { extractFromSms } from '../../../src/extract/index.ts';
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

describe('pool spec', () => {
  test('expands numbers and inclusive ranges, without duplicates', () => {
    expect(parsePoolSpec('+12025550100-+12025550102, +13125550142,+12025550101')).toEqual([
      '+12025550100',
      '+12025550101',
      '+12025550102',
      '+13125550142',
    ]);
  });

  test('the default synthetic pool is the fictional 555-0100…0199 block in ten area codes', () => {
    const numbers = parsePoolSpec(DEFAULT_SYNTHETIC_POOL);
    expect(numbers).toHaveLength(1000);
    for (const number of numbers) expect(number).toMatch(/^\+1[2-9]\d{2}55501\d{2}$/);
  });

  test.each([
    '+44207946000',
    '12025550100',
    '+1202555010',
    '+12025550199-+12025550100',
    '+1202-+1203-+1204',
  ])('refuses %s', (spec) => {
    expect(() => parsePoolSpec(spec)).toThrow();
  });
});

describe('quarantine and exhaustion (a pool of two numbers)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startChallengeApp({
      env: { NUMBER_POOL: '+12025550100-+12025550101', NUMBER_QUARANTINE: '600' },
    });
  });
  afterAll(() => t?.stop());

  test('a failed assignment is no_number_available (503, Retry-After) and consumes nothing', async () => {
    const clock = new TestClock(new Date(Date.now() + 86_400_000));
    const ctx = () => ctxOf(t.app, clock);
    const principal = principalFor(await createAccount(t.app));
    const a = await openSession(ctx(), principal);
    const b = await openSession(ctx(), principal);
    expect(new Set([a.number, b.number])).toEqual(new Set(['+12025550100', '+12025550101']));

    const error = await rejectionOf(openSession(ctx(), principal));
    expect(error).toMatchObject({ code: 'no_number_available', status: 503 });
    // The soonest a number frees is the first session's expiry (SESSION_TTL 900 s).
    expect(error.retryAfter).toBe(900);
    expect(
      await countRows(t.app, 'usage_event', 'credential_id = ?', [principal.credentialId]),
    ).toBe(2);
    expect(
      await countRows(t.app, 'challenge_session', 'credential_id = ?', [principal.credentialId]),
    ).toBe(2);

    // A reroute that finds no number leaves the session on its old number.
    const reroute = await rejectionOf(rerouteSession(ctx(), principal, a.id));
    expect(reroute.code).toBe('no_number_available');
    expect(await countRows(t.app, 'phone_number', 'held_by = ?', [a.id])).toBe(1);
    expect(
      await countRows(t.app, 'usage_event', 'credential_id = ?', [principal.credentialId]),
    ).toBe(2);

    // Email sessions need no number and are unaffected.
    expect((await openSession(ctx(), principal, { channel: 'email_otp' })).state).toBe('active');

    await closeSession(ctx(), principal, a.id);
    await closeSession(ctx(), principal, b.id);
  });

  test('a released synthetic number serves the next session at once (issue 16: only its own account can reach it)', async () => {
    const clock = new TestClock(new Date(Date.now() + 2 * 86_400_000));
    const ctx = () => ctxOf(t.app, clock);
    const principal = principalFor(await createAccount(t.app));
    const first = await openSession(ctx(), principal);
    const second = await openSession(ctx(), principal);
    clock.advance(5);
    await closeSession(ctx(), principal, first.id);

    const next = await openSession(ctx(), principal);
    expect(next.number).toBe(first.number);
    await closeSession(ctx(), principal, next.id);
    await closeSession(ctx(), principal, second.id);
  });

  test("a late synthetic message from the number's previous account never reaches its next holder", async () => {
    const clock = new TestClock(new Date(Date.now() + 3 * 86_400_000));
    const ctx = () => ctxOf(t.app, clock);
    const previous = principalFor(await createAccount(t.app));
    const next = principalFor(await createAccount(t.app));
    const first = await openSession(ctx(), previous);
    const other = await openSession(ctx(), previous);
    await closeSession(ctx(), previous, first.id);
    const taken = await openSession(ctx(), next);
    expect(taken.number).toBe(first.number);

    // The previous account's test harness sends its code late, to the number it no longer holds.
    const late = await rejectionOf(
      receiveMessage(ctx(), {
        medium: 'sms',
        carrier: 'synthetic',
        to: first.number!,
        from: '+14155550100',
        extraction: extractFromSms({ text: 'Your code is 424242' }),
        raw: Buffer.from('Your code is 424242'),
        onlyForAccount: previous.accountId,
      }),
    );
    expect(late.code).toBe('not_found');
    expect(await countRows(t.app, 'inbound_message', 'session_id = ?', [taken.id])).toBe(0);
    expect(await countRows(t.app, 'verdict', 'session_id = ?', [taken.id])).toBe(0);
    await closeSession(ctx(), next, taken.id);
    await closeSession(ctx(), previous, other.id);
  });
});

describe('quarantine of programmable numbers (a pool of two)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startChallengeApp({
      env: { TWILIO_NUMBERS: '+14155550123,+14155550124', NUMBER_QUARANTINE: '600' },
    });
  });
  afterAll(() => t?.stop());

  test('a released programmable number is not reassigned before its quarantine ends', async () => {
    const clock = new TestClock(new Date(Date.now() + 2 * 86_400_000));
    const ctx = () => ctxOf(t.app, clock);
    const principal = principalFor(await createAccount(t.app));
    const first = await openSession(ctx(), principal);
    const second = await openSession(ctx(), principal);
    expect(first.numberType).toBe('programmable');
    clock.advance(5);
    await closeSession(ctx(), principal, first.id);

    clock.advance(599);
    const during = await rejectionOf(openSession(ctx(), principal));
    expect(during.code).toBe('no_number_available');
    expect(during.retryAfter).toBe(1);

    clock.advance(1);
    const after = await openSession(ctx(), principal);
    expect(after.number).toBe(first.number);
    await closeSession(ctx(), principal, after.id);
    await closeSession(ctx(), principal, second.id);
  });

  test('an expired programmable number rests from its expiry; a synthetic one does not', async () => {
    const clock = new TestClock(new Date(Date.now() + 4 * 86_400_000));
    const ctx = () => ctxOf(t.app, clock);
    const principal = principalFor(await createAccount(t.app));
    const programmable = await openSession(ctx(), principal);
    const synthetic = await openSession(ctx(), principal, { numberType: 'synthetic' });
    // Past both sessions' expiry (SESSION_TTL 900 s), then the sweep.
    clock.advance(901);
    await expireDueSessions(ctx());
    const rests = await t.app.db.orm.em
      .fork()
      .execute<{ e164: string; available_at: string }[]>(
        'select e164, available_at from phone_number where e164 in (?, ?)',
        [programmable.number, synthetic.number],
      );
    const at = (n: string | null) =>
      new Date(rests.find((r) => r.e164 === n)!.available_at).getTime();
    expect(at(synthetic.number)).toBe(synthetic.expiresAt.getTime());
    expect(at(programmable.number)).toBe(programmable.expiresAt.getTime() + 600_000);
  });
});

describe('programmable numbers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startChallengeApp({
      env: { NUMBER_POOL: '+12025550100', TWILIO_NUMBERS: '+14155550123,+14155550124' },
    });
  });
  afterAll(() => t?.stop());

  test('sms_otp sessions get programmable numbers when any is configured, synthetic on request', async () => {
    const principal = principalFor(await createAccount(t.app));
    const programmable = await openSession(ctxOf(t.app), principal);
    expect(programmable.numberType).toBe('programmable');
    expect(programmable.number).toMatch(/^\+1415555012[34]$/);
    const synthetic = await openSession(ctxOf(t.app), principal, { numberType: 'synthetic' });
    expect(synthetic).toMatchObject({ numberType: 'synthetic', number: '+12025550100' });
    await closeSession(ctxOf(t.app), principal, programmable.id);
    await closeSession(ctxOf(t.app), principal, synthetic.id);
  });

  test('syncing the pool disables numbers no longer configured and never hands them out again', async () => {
    const em = t.app.db.orm.em.fork();
    await syncNumberPool(
      em,
      { synthetic: ['+12025550100'], programmable: ['+14155550123'] },
      new Date(),
    );
    expect(await countRows(t.app, 'phone_number', "e164 = '+14155550124' and not enabled")).toBe(1);
    const principal = principalFor(await createAccount(t.app));
    // Quarantine does not apply far enough in the future; only +14155550123 remains assignable.
    const clock = new TestClock(new Date(Date.now() + 86_400_000));
    const only = await openSession(ctxOf(t.app, clock), principal);
    expect(only.number).toBe('+14155550123');
    expect((await rejectionOf(openSession(ctxOf(t.app, clock), principal))).code).toBe(
      'no_number_available',
    );
    await syncNumberPool(
      em,
      { synthetic: ['+12025550100'], programmable: ['+14155550123', '+14155550124'] },
      new Date(),
    );
    expect(await countRows(t.app, 'phone_number', "e164 = '+14155550124' and enabled")).toBe(1);
  });
});

describe('assignment from a large pool (issue 16)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // 2,000 synthetic numbers, all free since the same instant.
    const ranges = Array.from({ length: 20 }, (_, i) => `+1${300 + i}5550100-+1${300 + i}5550199`);
    t = await startChallengeApp({ env: { NUMBER_POOL: ranges.join(',') } });
  });
  afterAll(() => t?.stop());

  test('takes the first free number in order by reading one index entry, not sorting the pool', async () => {
    const em = t.app.db.orm.em.fork();
    // Explained (and so run) in a transaction rolled back: nothing of it stays.
    const rolledBack = new Error('rolled back');
    let plan: PlanNode | undefined;
    await em
      .transactional(async (tx) => {
        const [row] = await tx.execute<{ 'QUERY PLAN': { Plan: PlanNode }[] }[]>(
          `explain (analyze, format json) ${ASSIGN_NUMBER_SQL}`,
          ['ses_plan', new Date(), 'synthetic', new Date()],
        );
        plan = row!['QUERY PLAN'][0]!.Plan;
        throw rolledBack;
      })
      .catch((error: unknown) => {
        if (error !== rolledBack) throw error;
      });
    const nodes = flatten(plan!);
    expect(nodes.map((n) => n['Node Type'])).not.toContain('Sort');
    const scan = nodes.find((n) => n['Index Name'] === 'phone_number_assignable_index');
    expect(scan?.['Actual Rows']).toBe(1);
    expect(await countRows(t.app, 'phone_number', 'held_by is not null')).toBe(0);

    const principal = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app), principal);
    expect(session.number).toBe('+13005550100');
    await closeSession(ctxOf(t.app), principal, session.id);
  });
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  Plans?: PlanNode[];
}

function flatten(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(flatten)];
}
