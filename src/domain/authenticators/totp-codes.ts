/**
 * Serving a TOTP code to a `totp` session: the code of the current time step (RFC 6238), handed
 * out at most once per step and authenticator, on every instance.
 *
 * How "never the same code twice" holds: the step is claimed with
 * `insert into totp_step … on conflict do nothing returning`, whose primary key
 * (authenticator_id, step) lets exactly one session win a step whatever the number of instances
 * sharing the database; the loser is told when the next step begins and holds until then.
 * A step with fewer than `MIN_VALIDITY_MS` left is not claimed at all: an agent needs time to type
 * the code, and an app would refuse it a moment later.
 * In the same transaction the session is checked (still active, row-locked against a close) and,
 * on its first code, becomes billable like a session whose SMS arrived. The seed is opened only
 * after commit, only for the winner, and the code is never stored or published: events carry the
 * session id and kind only. The claim's `session.verdict` webhook deliveries are written in the same
 * transaction (the outbox, as for every other verdict), with `valid_until` and without the code:
 * the code was computed for the one waiter and is stale within a step, and no outbox row holds a
 * code. The claimed steps stay (no code in them): the console lists them as the account's TOTP
 * verdicts.
 */
import type { Authenticator } from '../../entities/authenticator.ts';
import type { ChallengeSession } from '../../entities/challenge-session.ts';
import type { RowOf } from '../../entities/row.ts';
import { AppError } from '../../errors/index.ts';
import type { DomainContext } from '../context.ts';
import { sessionEndedError } from '../sessions/read.ts';
import { effectiveState } from '../sessions/views.ts';
import { enqueueWebhookEvent } from '../webhooks/events.ts';
import { codeAt } from './enrolment.ts';

/** A code with less validity left than this is not handed out (decisions.md: 5 s). */
export const MIN_VALIDITY_MS = 5_000;

export interface ServedCode {
  otpCode: string;
  receivedAt: Date;
  validUntil: Date;
}

type AuthenticatorRow = Pick<
  RowOf<Authenticator>,
  'id' | 'digits' | 'period' | 'algorithm' | 'secret'
>;

/** The code for `sessionId` now, or when to try again (the next step's start, on the clock). */
export async function serveTotpCode(
  ctx: DomainContext,
  sessionId: string,
  accountId: string,
): Promise<ServedCode | { retryAt: number }> {
  const now = ctx.clock();
  type Claim = { retryAt: number } | { authenticator: AuthenticatorRow; stepEnds: number };
  const served = await ctx.em.transactional(async (tx): Promise<Claim> => {
    const [session] = await tx.execute<
      Pick<RowOf<ChallengeSession>, 'state' | 'expires_at' | 'authenticator_id'>[]
    >(
      `select state, expires_at, authenticator_id from challenge_session
       where id = ? and account_id = ? for no key update`,
      [sessionId, accountId],
    );
    if (!session) throw new AppError('not_found', 'No such session');
    if (effectiveState(session, now) !== 'active') throw sessionEndedError(session, now);
    const [authenticator] = session.authenticator_id
      ? await tx.execute<AuthenticatorRow[]>(
          'select id, digits, period, algorithm, secret from authenticator where id = ? for share',
          [session.authenticator_id],
        )
      : [];
    if (!authenticator) {
      throw new AppError(
        'no_authenticator',
        "The session's authenticator was deleted; store it again and open a new session",
      );
    }
    const periodMs = authenticator.period * 1000;
    const step = Math.floor(now.getTime() / periodMs);
    const stepEnds = (step + 1) * periodMs;
    if (stepEnds - now.getTime() < MIN_VALIDITY_MS) return { retryAt: stepEnds };
    const claimed = await tx.execute<{ step: string }[]>(
      `insert into totp_step (authenticator_id, step, session_id, served_at) values (?, ?, ?, ?)
       on conflict do nothing returning step`,
      [authenticator.id, step, sessionId, now],
    );
    // Served steps are kept, one row per code handed out like a verdict row per message: they
    // are the record the console's recent verdicts read (issue 20). They go with the authenticator.
    if (claimed.length === 0) return { retryAt: stepEnds };
    await tx.execute(
      `with s as (
         update challenge_session set first_code_at = coalesce(first_code_at, ?), updated_at = ?
         where id = ? returning id)
       update usage_event set status = 'billable', settled_at = ?, updated_at = ?
       where session_id = (select id from s) and status = 'pending'`,
      [now, now, sessionId, now, now],
    );
    await enqueueWebhookEvent(tx, {
      accountId,
      type: 'session.verdict',
      at: now,
      data: {
        session_id: sessionId,
        channel: 'totp',
        verdict: 'otp_code',
        received_at: now.toISOString(),
        valid_until: new Date(stepEnds).toISOString(),
      },
    });
    return { authenticator, stepEnds };
  });
  if ('retryAt' in served) return served;
  ctx.webhooks.wake();

  const { authenticator, stepEnds } = served;
  const otpCode = codeAt(
    {
      secret: ctx.sealer.openText(authenticator.secret, authenticator.id),
      digits: authenticator.digits,
      period: authenticator.period,
      algorithm: authenticator.algorithm,
    },
    now,
  );
  ctx.background.run(
    () =>
      ctx.events.publish('account', accountId, {
        type: 'session.verdict',
        sessionId,
        kind: 'otp_code',
        at: now.toISOString(),
      }),
    (error) => ctx.log.warn({ err: error, sessionId }, 'event not published'),
  );
  return { otpCode, receivedAt: now, validUntil: new Date(stepEnds) };
}
