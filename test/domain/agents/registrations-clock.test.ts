/**
 * The agent operations read time from their context (issue 17 §2): a registration's code window,
 * its poll interval and its claim token's lifetime are judged by `ctx.clock`, so a frozen clock
 * moved by hand decides them, with no sleeping and regardless of the wall clock.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createRegistration,
  pollClaim,
  type RegistrationPolicy,
} from '../../../src/domain/agents/registrations.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { ctxOf, TestClock } from '../../helpers/challenges.ts';

const policy: RegistrationPolicy = {
  userCodeTtl: 600,
  pollInterval: 5,
  userCodePepper: 'pepper-for-this-test-only',
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

let counter = 0;
const register = (clock: TestClock) =>
  createRegistration(
    ctxOf(t.app, clock),
    { email: `clock-${++counter}@example.test`, scope: 'sessions:read' },
    policy,
  );

describe('agent registrations on an injected clock', () => {
  test('the code window and the claim token are set and judged by the context clock', async () => {
    // A start off the wall clock (and off whole seconds), so only the injected clock can explain it.
    const start = new Date(Math.floor(Date.now() / 1000) * 1000 + 3_600_250);
    const clock = new TestClock(start);
    const { registration, claimToken } = await register(clock);
    expect(registration.codeExpiresAt.getTime()).toBe(start.getTime() + 600_000);
    expect(registration.claimTokenExpiresAt.getTime()).toBe(start.getTime() + 1_200_000);
    expect(await pollClaim(ctxOf(t.app, clock), claimToken, policy)).toEqual({ kind: 'pending' });
    clock.advance(600);
    expect(await pollClaim(ctxOf(t.app, clock), claimToken, policy)).toEqual({ kind: 'expired' });
  });

  test('polls closer than the interval on the context clock are slow_down; one interval later, pending', async () => {
    const clock = new TestClock();
    const { claimToken } = await register(clock);
    expect(await pollClaim(ctxOf(t.app, clock), claimToken, policy)).toEqual({ kind: 'pending' });
    clock.advance(1);
    expect(await pollClaim(ctxOf(t.app, clock), claimToken, policy)).toEqual({
      kind: 'slow_down',
    });
    clock.advance(5);
    expect(await pollClaim(ctxOf(t.app, clock), claimToken, policy)).toEqual({ kind: 'pending' });
  });
});
