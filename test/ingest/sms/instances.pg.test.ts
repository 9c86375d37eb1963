/**
 * Two service instances sharing one PostgreSQL database and one Redis: the message arrives on one
 * and the waiter sits on the other; limits, consumption and sweeps hold across both.
 * Needs a real PostgreSQL (LATCHKEY_TEST_DATABASE_URL) and Redis (LATCHKEY_TEST_REDIS_URL).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openSession } from '../../../src/domain/sessions/open.ts';
import { sweepOnce } from '../../../src/domain/sweeper.ts';
import { waitForVerdict } from '../../../src/domain/verdicts/wait.ts';
import type { TestApp } from '../../helpers/app.ts';
import {
  countRows,
  createAccount,
  ctxOf,
  postTwilio,
  principalFor,
  startChallengeApp,
  TestClock,
  watching,
} from '../../helpers/challenges.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/database.ts';

const redisUrl = process.env.LATCHKEY_TEST_REDIS_URL;
let database: TestDatabase;
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  if (!redisUrl || !process.env.LATCHKEY_TEST_DATABASE_URL) {
    throw new Error('needs LATCHKEY_TEST_DATABASE_URL and LATCHKEY_TEST_REDIS_URL');
  }
  database = await createTestDatabase();
  // Instances sharing a database share the sealing keys (each has its own DATA_DIR).
  const env = {
    DATABASE_URL: database.url!,
    REDIS_URL: redisUrl,
    SECRETS_KEY: database.secretsKey,
  };
  a = await startChallengeApp({ env });
  b = await startChallengeApp({ env });
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await database?.drop();
});

describe('two instances, one database, one Redis', () => {
  test('both instances run on the shared database and share events through Redis', () => {
    expect(a.app.db.embedded).toBe(false);
    expect(a.app.challenges.events.shared).toBe(true);
    expect(b.app.challenges.events.shared).toBe(true);
  });

  test('a message arriving on instance A wakes the waiter on instance B at once', async () => {
    const principal = principalFor(await createAccount(a.app));
    const session = await openSession(ctxOf(a.app), principal);
    const ready = watching(b.app, session.number!);
    const waiting = waitForVerdict(ctxOf(b.app), principal, session.id, { timeout: 10 });
    await ready;
    const sent = Date.now();
    const response = await postTwilio(a.baseUrl, {
      to: session.number!,
      body: 'Your code is 141421',
    });
    expect(response.status).toBe(200);
    expect(await waiting).toMatchObject({ verdict: 'otp_code', otpCode: '141421' });
    expect(Date.now() - sent).toBeLessThan(2000);
  });

  test('5 waiters spread over both instances and one message: exactly one delivery', async () => {
    const principal = principalFor(await createAccount(a.app));
    const session = await openSession(ctxOf(b.app), principal);
    const ready = Promise.all([
      watching(a.app, session.number!, 2),
      watching(b.app, session.number!, 3),
    ]);
    const waiters = [a, b, a, b, b].map((instance) =>
      waitForVerdict(ctxOf(instance.app), principal, session.id, { timeout: 2 }),
    );
    await ready;
    await postTwilio(b.baseUrl, { to: session.number!, body: 'Your code is 173205' });
    const results = await Promise.all(waiters);
    expect(results.filter((r) => r.verdict === 'otp_code')).toHaveLength(1);
    expect(results.filter((r) => r.verdict === 'timeout')).toHaveLength(4);
  });

  test('60 concurrent opens on one credential across both instances give exactly 50 sessions, no number twice', async () => {
    const principal = principalFor(await createAccount(a.app));
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) => openSession(ctxOf((i % 2 ? a : b).app), principal)),
    );
    const opened = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    expect(opened).toHaveLength(50);
    expect(new Set(opened.map((s) => s.number)).size).toBe(50);
    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason.code] : []));
    expect(refused).toEqual(Array(10).fill('session_limit_reached'));
  });

  test('sessions opened on both instances get distinct numbers under contention', async () => {
    const accountId = await createAccount(a.app);
    const opened = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        openSession(ctxOf((i % 2 ? a : b).app), principalFor(accountId)),
      ),
    );
    expect(new Set(opened.map((s) => s.number)).size).toBe(80);
  });

  test('two instances sweeping at once expire each due session exactly once', async () => {
    const clock = new TestClock(new Date(Date.now() + 7 * 86_400_000));
    const principal = principalFor(await createAccount(a.app));
    const sessions = await Promise.all(
      Array.from({ length: 30 }, () => openSession(ctxOf(a.app, clock), principal)),
    );
    clock.advance(901);
    // Everything active is due by then, this test's 30 and what earlier tests left open.
    const due = await countRows(a.app, 'challenge_session', "state = 'active'");
    expect(due).toBeGreaterThanOrEqual(30);
    const [fromA, fromB] = await Promise.all([
      sweepOnce({ ...a.app.challenges, clock: clock.now }),
      sweepOnce({ ...b.app.challenges, clock: clock.now }),
    ]);
    expect(fromA.expired + fromB.expired).toBe(due);
    const ids = sessions.map((s) => s.id);
    expect(
      await countRows(a.app, 'challenge_session', "state = 'expired' and id in (?)", [ids]),
    ).toBe(30);
    expect(await countRows(a.app, 'phone_number', 'held_by in (?)', [ids])).toBe(0);
    expect(
      await countRows(a.app, 'usage_event', "status = 'not_billed' and session_id in (?)", [ids]),
    ).toBe(30);
  });
});
