/**
 * wait and consume: at once when a verdict is there, as soon as one arrives otherwise, exactly
 * once among concurrent waiters and listings, a clear error on closed or expired sessions, and no
 * database polling while waiting.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DomainContext } from '../../../src/domain/context.ts';
import { listMessages } from '../../../src/domain/messages/list.ts';
import { receiveMessage } from '../../../src/domain/messages/receive.ts';
import { closeSession } from '../../../src/domain/sessions/close.ts';
import { openSession } from '../../../src/domain/sessions/open.ts';
import { rerouteSession } from '../../../src/domain/sessions/reroute.ts';
import { waitForVerdict } from '../../../src/domain/verdicts/wait.ts';
import { extractFromEmail, extractFromSms } from '../../../src/extract/index.ts';
import type { TestApp } from '../../helpers/app.ts';
import {
  createAccount,
  ctxOf,
  principalFor,
  rejectionOf,
  startChallengeApp,
  watching,
} from '../../helpers/challenges.ts';
import { interceptPoolQueries } from '../../helpers/pool-queries.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startChallengeApp();
});
afterAll(() => t?.stop());

const sms = (to: string, body: string) =>
  receiveMessage(ctxOf(t.app), {
    medium: 'sms',
    carrier: 'synthetic',
    to,
    from: '+14155550100',
    extraction: extractFromSms({ text: body }),
    raw: Buffer.from(body),
  });

async function openFor(channel: 'sms_otp' | 'email_otp' | 'magic_link' = 'sms_otp') {
  const principal = principalFor(await createAccount(t.app));
  const session = await openSession(ctxOf(t.app), principal, { channel });
  return { principal, session };
}

describe('delivery', () => {
  test('a verdict already there is returned at once', async () => {
    const { principal, session } = await openFor();
    await sms(session.number!, 'Your Acme verification code is 482913. It expires in 10 minutes.');
    const started = Date.now();
    const result = await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 10 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(result).toMatchObject({
      verdict: 'otp_code',
      sessionId: session.id,
      otpCode: '482913',
      from: '+14155550100',
      medium: 'sms',
    });
    if (result.verdict === 'timeout') throw new Error('unreachable');
    expect(result.receivedAt).toBeInstanceOf(Date);
    expect(result.nextStep).toContain('otp_code');
  });

  test('a waiter blocks until the message arrives, then gets its code', async () => {
    const { principal, session } = await openFor();
    const ready = watching(t.app, session.number!);
    const waiting = waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 10 });
    await ready;
    const sent = Date.now();
    await sms(session.number!, '123456 is your sign-in code');
    const result = await waiting;
    expect(result).toMatchObject({ verdict: 'otp_code', otpCode: '123456' });
    // Woken by the event, not found at the deadline.
    expect(Date.now() - sent).toBeLessThan(2000);
  });

  test('5 concurrent waiters and one message: exactly one delivery', async () => {
    const { principal, session } = await openFor();
    let sent = 0;
    let deliveredAfter = Number.POSITIVE_INFINITY;
    const ready = watching(t.app, session.number!, 5);
    const waiters = Array.from({ length: 5 }, () =>
      waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 3 }).then((result) => {
        if (result.verdict !== 'timeout') deliveredAfter = Date.now() - sent;
        return result;
      }),
    );
    await ready;
    sent = Date.now();
    await sms(session.number!, 'Use 918273 to sign in.');
    const results = await Promise.all(waiters);
    const delivered = results.filter((r) => r.verdict === 'otp_code');
    expect(delivered).toHaveLength(1);
    expect(deliveredAfter).toBeLessThan(2000);
    expect(delivered[0]).toMatchObject({ otpCode: '918273' });
    expect(results.filter((r) => r.verdict === 'timeout')).toHaveLength(4);
  });

  test('two codes go to two waiters, oldest first, each once', async () => {
    const { principal, session } = await openFor();
    await sms(session.number!, 'Your code is 111111');
    await sms(session.number!, 'Your code is 222222');
    const [a, b] = await Promise.all([
      waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 2 }),
      waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 2 }),
    ]);
    const codes = [a, b].map((r) => (r.verdict === 'otp_code' ? r.otpCode : null)).sort();
    expect(codes).toEqual(['111111', '222222']);
    const third = await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 0.2 });
    expect(third.verdict).toBe('timeout');
  });

  test('a magic_link session is handed the link; a passkey prompt is reported as webauthn_required', async () => {
    const { principal, session } = await openFor('magic_link');
    await receiveMessage(ctxOf(t.app), {
      medium: 'email',
      carrier: 'smtp',
      to: session.inboxAddress!.toUpperCase(),
      from: 'no-reply@acme.example',
      extraction: extractFromEmail({
        subject: 'Sign in to Acme',
        text: 'Click to sign in: https://acme.example/auth/magic?token=Zx81kQp2Lm0vT7 This link expires in 15 minutes.',
      }),
      raw: Buffer.from('raw email'),
    });
    const link = await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 2 });
    expect(link).toMatchObject({
      verdict: 'magic_link',
      magicLink: 'https://acme.example/auth/magic?token=Zx81kQp2Lm0vT7',
      medium: 'email',
    });

    const other = await openFor('email_otp');
    await receiveMessage(ctxOf(t.app), {
      medium: 'email',
      carrier: 'smtp',
      to: other.session.inboxAddress!,
      from: 'security@acme.example',
      extraction: extractFromEmail({
        subject: 'Finish signing in',
        text: 'To finish signing in, use your passkey or security key on this device.',
      }),
      raw: Buffer.from('raw email'),
    });
    const passkey = await waitForVerdict(ctxOf(t.app), other.principal, other.session.id, {
      timeout: 2,
    });
    expect(passkey).toMatchObject({ verdict: 'webauthn_required', webauthnRequired: true });
  });
});

describe('consumption through the message listing', () => {
  test('reading a parsed code in the listing consumes it: a later wait times out', async () => {
    const { principal, session } = await openFor();
    await sms(session.number!, 'Your code: 246810');
    const { messages } = await listMessages(
      ctxOf(t.app),
      principal,
      session.id,
      {},
      {
        reveal: true,
      },
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]!.verdict).toMatchObject({ kind: 'otp_code', otpCode: '246810' });
    expect(messages[0]!.verdict!.consumedAt).toBeInstanceOf(Date);
    const result = await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 0.2 });
    expect(result.verdict).toBe('timeout');
  });

  test('without otp:read the listing hides codes and consumes nothing', async () => {
    const accountId = await createAccount(t.app);
    const reader = principalFor(accountId, { scopes: ['sessions:read'] });
    const waiter = principalFor(accountId);
    const session = await openSession(ctxOf(t.app), waiter);
    await sms(session.number!, 'Your code: 135790');
    const { messages } = await listMessages(
      ctxOf(t.app),
      reader,
      session.id,
      {},
      {
        reveal: true,
      },
    );
    expect(messages[0]).toMatchObject({ codesHidden: true, outcome: 'otp_code' });
    expect(messages[0]!.verdict).toMatchObject({
      otpCode: null,
      magicLink: null,
      consumedAt: null,
    });
    const result = await waitForVerdict(ctxOf(t.app), waiter, session.id, { timeout: 1 });
    expect(result).toMatchObject({ verdict: 'otp_code', otpCode: '135790' });
  });

  test('the metadata listing (reveal: false) hides codes even from otp:read and consumes nothing', async () => {
    const { principal, session } = await openFor();
    await sms(session.number!, 'Your code: 864202');
    const { messages } = await listMessages(
      ctxOf(t.app),
      principal,
      session.id,
      {},
      {
        reveal: false,
      },
    );
    expect(messages[0]).toMatchObject({ codesHidden: true, outcome: 'otp_code' });
    expect(messages[0]!.verdict).toMatchObject({ otpCode: null, consumedAt: null });
    const result = await waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 1 });
    expect(result).toMatchObject({ verdict: 'otp_code', otpCode: '864202' });
  });
});

describe('refusals', () => {
  test("waiting on another account's session is not_found", async () => {
    const { session } = await openFor();
    const stranger = principalFor(await createAccount(t.app));
    const error = await rejectionOf(
      waitForVerdict(ctxOf(t.app), stranger, session.id, { timeout: 1 }),
    );
    expect(error.code).toBe('not_found');
  });

  test('closing the session while a caller waits ends the wait with session_closed', async () => {
    const { principal, session } = await openFor();
    const ready = watching(t.app, session.number!);
    const waiting = rejectionOf(
      waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 10 }),
    );
    await ready;
    await closeSession(ctxOf(t.app), principal, session.id);
    expect(await waiting).toMatchObject({ code: 'session_closed' });
  });

  test('a timeout outside 0…300 seconds is invalid_request', async () => {
    const { principal, session } = await openFor();
    for (const timeout of [-1, 301]) {
      const error = await rejectionOf(
        waitForVerdict(ctxOf(t.app), principal, session.id, { timeout }),
      );
      expect(error.code).toBe('invalid_request');
    }
  });

  test('a reroute during a wait keeps it waiting, and a code to the new number arrives', async () => {
    const { principal, session } = await openFor();
    const ready = watching(t.app, session.number!);
    const waiting = waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 5 });
    await ready;
    const { session: moved } = await rerouteSession(ctxOf(t.app), principal, session.id);
    await sms(moved.number!, 'Code 777888');
    expect(await waiting).toMatchObject({ verdict: 'otp_code', otpCode: '777888' });
  });
});

describe('cost of waiting', () => {
  test('a waiter touches the database at the start and the end, never while it waits', async () => {
    const { principal, session } = await openFor();
    const base = ctxOf(t.app);
    let queries = 0;
    const em = new Proxy(base.em, {
      get(target, property) {
        if (property === 'execute') {
          return (...args: unknown[]) => {
            queries += 1;
            return (target.execute as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        // Methods run on the real entity manager (they read its private fields).
        const value = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    }) as EntityManager;
    const ctx: DomainContext = { ...base, em };
    // The hot statements run by name on the ORM's pool (src/db/prepared.ts): count those too.
    const restore = await interceptPoolQueries(base.em, () => {
      queries += 1;
    });
    const result = await waitForVerdict(ctx, principal, session.id, { timeout: 2 }).finally(
      restore,
    );
    expect(result.verdict).toBe('timeout');
    // Read the session, one consume attempt at the start, one at the deadline.
    expect(queries).toBe(3);
  });

  test('shutting down ends open waits with service_unavailable, and refuses new ones', async () => {
    const local = await startChallengeApp();
    try {
      const principal = principalFor(await createAccount(local.app));
      const session = await openSession(ctxOf(local.app), principal);
      const ready = watching(local.app, session.number!);
      const waiting = rejectionOf(
        waitForVerdict(ctxOf(local.app), principal, session.id, { timeout: 30 }),
      );
      await ready;
      local.app.challenges.waiters.close();
      expect(await waiting).toMatchObject({ code: 'service_unavailable', status: 503 });
      const late = await rejectionOf(
        waitForVerdict(ctxOf(local.app), principal, session.id, { timeout: 1 }),
      );
      expect(late.code).toBe('service_unavailable');
    } finally {
      await local.stop();
    }
  });
});
