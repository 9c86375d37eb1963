/**
 * wait: the verdict of a session, at once if one is already there, else as soon as one arrives,
 * else the timeout result `{session_id, received_at: null, verdict: "timeout", next_step}`.
 *
 * How nothing is missed and nothing is polled:
 * 1. listen on `session:<id>` first (synchronous registration on a bus whose Redis subscription
 *    was confirmed at start), so an event published after step 3 cannot slip past;
 * 2. check the session (another account's is `not_found`, a closed or expired one a clear error)
 *    and register under its address, so an ingest on this instance can hand a verdict over;
 * 3. try to consume; on any later verdict event (or a Redis resync) try again — a loser of the
 *    race simply keeps waiting; a hand-off is already ours; on `ended` fail clearly; on
 *    `rerouted` follow the new number and expiry;
 * 4. when the time is up, one last consume (cheap, and a safety net for an event lost in transit),
 *    then the timeout result; when the session's own expiry comes first, `session_expired`.
 * The database is touched once at the start, once per event and once at the end — never on a
 * timer. A shutdown ends the wait with `service_unavailable`; an aborted caller with a timeout.
 * A hand-off that arrives after the wait decided otherwise is given back (see waiters.ts).
 *
 * A totp session receives no message: its wait claims the current time step of its authenticator
 * (totp-codes.ts) and answers that step's code with `validUntil`; when the step is taken or has
 * under 5 s left, it holds until the next step on the injected clock (`ctx.after`), within the
 * timeout and the session's life, still ending at once on `ended`, shutdown or abort.
 */
import { z } from 'zod';
import type { Principal } from '../../auth/principal.ts';
import { AppError, validate } from '../../errors/index.ts';
import type { SessionEvent } from '../../events/topics.ts';
import { type ServedCode, serveTotpCode } from '../authenticators/totp-codes.ts';
import type { DomainContext } from '../context.ts';
import { MAX_WAIT_SECONDS } from '../limits.ts';
import { endedError, loadSessionRow, sessionEndedError } from '../sessions/read.ts';
import { effectiveState } from '../sessions/views.ts';
import { inSpan } from '../spans.ts';
import { consumeNext } from './consume.ts';
import type { DeliveredVerdict } from './delivered.ts';
import { returnClaimed } from './outbox.ts';
import { LocalWaiter } from './waiters.ts';

export const DEFAULT_WAIT_SECONDS = 30;

export const waitInput = z.strictObject({
  /** Seconds to wait; 0 only looks. */
  timeout: z.coerce.number().min(0).max(MAX_WAIT_SECONDS).default(DEFAULT_WAIT_SECONDS),
});
export type WaitInput = z.input<typeof waitInput>;

export type WaitResult =
  | (DeliveredVerdict & { verdict: DeliveredVerdict['kind']; nextStep: string })
  | (ServedCode & { verdict: 'otp_code'; sessionId: string; nextStep: string })
  | { verdict: 'timeout'; sessionId: string; receivedAt: null; nextStep: string };

type Wake =
  | SessionEvent
  | { type: 'resync' }
  | { type: 'handoff'; verdict: DeliveredVerdict }
  | 'time'
  | 'aborted';

export function waitForVerdict(
  ctx: DomainContext,
  principal: Principal,
  sessionId: string,
  rawInput: WaitInput = {},
  signal?: AbortSignal,
): Promise<WaitResult> {
  return inSpan('latchkey.verdict.wait', { 'latchkey.session_id': sessionId }, () =>
    wait(ctx, principal, sessionId, rawInput, signal),
  );
}

async function wait(
  ctx: DomainContext,
  principal: Principal,
  sessionId: string,
  rawInput: WaitInput,
  signal?: AbortSignal,
): Promise<WaitResult> {
  const { timeout } = validate(waitInput, rawInput);
  const deadline = Date.now() + timeout * 1000;

  const queue: Wake[] = [];
  let wake: (() => void) | null = null;
  const push = (event: Wake) => {
    queue.push(event);
    wake?.();
  };
  const onAbort = () => push('aborted');
  const waiter = new LocalWaiter(
    sessionId,
    principal.credentialId,
    (verdict) => push({ type: 'handoff', verdict }),
    onAbort,
  );
  ctx.waiters.enter(waiter);
  const stopListening = ctx.events.listen('session', sessionId, push);
  const stopResync = ctx.events.onResync(() => push({ type: 'resync' }));
  signal?.addEventListener('abort', onAbort);

  // The next wake-up, or 'time' at `until`: on this process's timer clock (Date.now), or on the
  // injected clock (`ctx.after`) for a TOTP hold, whose instants are steps of that clock.
  const next = (until: number, onClock = false): Promise<Wake> => {
    const queued = queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve) => {
      const delay = Math.max(0, until - (onClock ? ctx.clock().getTime() : Date.now()));
      const cancel = onClock
        ? ctx.after(delay, () => finish('time'))
        : (() => {
            const timer = setTimeout(() => finish('time'), delay);
            return () => clearTimeout(timer);
          })();
      const finish = (value: Wake) => {
        cancel();
        wake = null;
        resolve(value);
      };
      wake = () => finish(queue.shift()!);
    });
  };

  try {
    const row = await loadSessionRow(ctx, principal, sessionId);
    if (effectiveState(row, ctx.clock()) !== 'active') throw sessionEndedError(row, ctx.clock());
    if (row.channel === 'totp') {
      // No message will arrive: the code is computed, once per time step (totp-codes.ts). Until a
      // step can be served, hold for the next one, within the timeout and the session's life.
      const until = Math.min(
        ctx.clock().getTime() + timeout * 1000,
        new Date(row.expires_at).getTime(),
      );
      for (;;) {
        if (waiter.shuttingDown) throw restarting();
        if (signal?.aborted) return timedOut(ctx, sessionId, row.channel);
        const served = await serveTotpCode(ctx, sessionId, principal.accountId);
        if (!('retryAt' in served)) {
          return { ...served, sessionId, verdict: 'otp_code', nextStep: TOTP_NEXT_STEP };
        }
        const event = await next(Math.min(served.retryAt, until), true);
        if (event === 'time' && served.retryAt > until) {
          if (ctx.clock().getTime() < new Date(row.expires_at).getTime()) {
            return timedOut(ctx, sessionId, row.channel);
          }
          throw endedError('expired');
        }
        if (typeof event === 'object' && event.type === 'ended') throw endedError(event.state);
      }
    }
    ctx.waiters.watch(waiter, (row.number ?? row.inbox_address)!);
    // The session's expiry, on this process's timer clock.
    let expiresAt = Date.now() + (new Date(row.expires_at).getTime() - ctx.clock().getTime());

    const first = await consumeNext(ctx, sessionId, waiter.consumer);
    if (first) return delivered(ctx, first);

    for (;;) {
      if (waiter.shuttingDown) throw restarting();
      if (signal?.aborted) return timedOut(ctx, sessionId, row.channel);
      const event = await next(Math.min(deadline, expiresAt));
      if (event === 'aborted') continue;
      if (event === 'time') {
        const last = await consumeNext(ctx, sessionId, waiter.consumer);
        if (last) return delivered(ctx, last);
        if (deadline <= expiresAt) return timedOut(ctx, sessionId, row.channel);
        throw endedError('expired');
      }
      switch (event.type) {
        case 'handoff':
          return delivered(ctx, event.verdict);
        case 'ended':
          throw endedError(event.state);
        case 'rerouted':
          ctx.waiters.watch(waiter, event.number);
          expiresAt = Date.now() + (new Date(event.expiresAt).getTime() - ctx.clock().getTime());
          break;
        default: {
          const verdict = await consumeNext(ctx, sessionId, waiter.consumer);
          if (verdict) return delivered(ctx, verdict);
        }
      }
    }
  } finally {
    ctx.waiters.leave(waiter);
    stopListening();
    stopResync();
    signal?.removeEventListener('abort', onAbort);
    // A verdict handed over while this wait was deciding otherwise goes back to the session.
    for (const left of queue) {
      if (typeof left === 'object' && left.type === 'handoff') {
        ctx.background.run(
          () => returnClaimed(ctx, left.verdict, waiter.consumer),
          (error) =>
            ctx.log.error(
              { err: error, verdictId: left.verdict.verdictId },
              'verdict not given back',
            ),
        );
      }
    }
  }
}

function restarting() {
  return new AppError('service_unavailable', 'The service is restarting; wait again');
}

function delivered(ctx: DomainContext, verdict: DeliveredVerdict): WaitResult {
  ctx.metrics.verdictDelivered(verdict.kind, verdict.receivedAt, ctx.clock());
  // The verdict's kind and ids only: never its code or link.
  ctx.log.info(
    { sessionId: verdict.sessionId, verdictId: verdict.verdictId, verdict: verdict.kind },
    'verdict delivered',
  );
  return { ...verdict, verdict: verdict.kind, nextStep: verdictNextStep(verdict) };
}

function verdictNextStep(verdict: DeliveredVerdict): string {
  switch (verdict.kind) {
    case 'otp_code':
      return 'Enter otp_code in the app now; it may expire within minutes. Close the session when signed in.';
    case 'magic_link':
      return 'Open magic_link in the browser session that requested it. Close the session when signed in.';
    case 'webauthn_required':
      return 'The app asks for a passkey or security key, which cannot be relayed; complete that step another way, then close the session.';
  }
}

const TOTP_NEXT_STEP =
  'Enter otp_code in the app before valid_until; a later wait gives the code of a later time step. Close the session when signed in.';

function timedOut(ctx: DomainContext, sessionId: string, channel: string): WaitResult {
  ctx.metrics.verdictDelivered('timeout', null, ctx.clock());
  ctx.log.info({ sessionId, verdict: 'timeout' }, 'verdict delivered');
  if (channel === 'totp') {
    return {
      verdict: 'timeout',
      sessionId,
      receivedAt: null,
      nextStep:
        'Every time step within the timeout was already served to another session of this authenticator (or had under 5 s left). Wait again, or close the session.',
    };
  }
  const where = channel === 'sms_otp' ? 'number' : 'inbox address';
  return {
    verdict: 'timeout',
    sessionId,
    receivedAt: null,
    nextStep: `No code arrived in time. Check that the app sent to this session's ${where}, inspect the session's messages, then wait again${channel === 'sms_otp' ? ', reroute to a new number,' : ''} or close the session.`,
  };
}
