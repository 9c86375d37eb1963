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
 */
import { z } from 'zod';
import type { Principal } from '../../auth/principal.ts';
import { AppError, validate } from '../../errors/index.ts';
import type { SessionEvent } from '../../events/topics.ts';
import type { DomainContext } from '../context.ts';
import { endedError, loadSessionRow, sessionEndedError } from '../sessions/read.ts';
import { effectiveState } from '../sessions/views.ts';
import { consumeNext, type DeliveredVerdict } from './consume.ts';
import { returnClaimed } from './outbox.ts';
import { LocalWaiter } from './waiters.ts';

export const MAX_WAIT_SECONDS = 300;
export const DEFAULT_WAIT_SECONDS = 30;

export const waitInput = z.strictObject({
  /** Seconds to wait; 0 only looks. */
  timeout: z.coerce.number().min(0).max(MAX_WAIT_SECONDS).default(DEFAULT_WAIT_SECONDS),
});
export type WaitInput = z.input<typeof waitInput>;

export type WaitResult =
  | (DeliveredVerdict & { verdict: DeliveredVerdict['kind']; nextStep: string })
  | { verdict: 'timeout'; sessionId: string; receivedAt: null; nextStep: string };

type Wake =
  | SessionEvent
  | { type: 'resync' }
  | { type: 'handoff'; verdict: DeliveredVerdict }
  | 'time'
  | 'aborted';

export async function waitForVerdict(
  ctx: DomainContext,
  principal: Principal,
  sessionId: string,
  rawInput: WaitInput = {},
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
  const waiter = new LocalWaiter(sessionId, principal.credentialId, (verdict) =>
    push({ type: 'handoff', verdict }),
  );
  ctx.waiters.enter(waiter);
  const stopListening = ctx.events.listen('session', sessionId, push);
  const stopResync = ctx.events.onResync(() => push({ type: 'resync' }));
  const onAbort = () => push('aborted');
  waiter.controller.signal.addEventListener('abort', onAbort);
  signal?.addEventListener('abort', onAbort);

  const next = (until: number): Promise<Wake> => {
    const queued = queue.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish('time'), Math.max(0, until - Date.now()));
      const finish = (value: Wake) => {
        clearTimeout(timer);
        wake = null;
        resolve(value);
      };
      wake = () => finish(queue.shift()!);
    });
  };

  try {
    const row = await loadSessionRow(ctx, principal, sessionId);
    if (effectiveState(row, ctx.clock()) !== 'active') throw sessionEndedError(row, ctx.clock());
    ctx.waiters.watch(waiter, (row.number ?? row.inbox_address)!);
    // The session's expiry, on this process's timer clock.
    let expiresAt = Date.now() + (new Date(row.expires_at).getTime() - ctx.clock().getTime());

    const first = await consumeNext(ctx, sessionId, waiter.consumer);
    if (first) return delivered(ctx, first);

    for (;;) {
      if (waiter.controller.signal.aborted) throw restarting();
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
    waiter.controller.signal.removeEventListener('abort', onAbort);
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

function timedOut(ctx: DomainContext, sessionId: string, channel: string): WaitResult {
  ctx.metrics.verdictDelivered('timeout', null, ctx.clock());
  ctx.log.info({ sessionId, verdict: 'timeout' }, 'verdict delivered');
  const where = channel === 'sms_otp' ? 'number' : 'inbox address';
  return {
    verdict: 'timeout',
    sessionId,
    receivedAt: null,
    nextStep: `No code arrived in time. Check that the app sent to this session's ${where}, inspect the session's messages, then wait again${channel === 'sms_otp' ? ', reroute to a new number,' : ''} or close the session.`,
  };
}
