/**
 * reroute: an active sms_otp session moves to a new number; the old one is released into
 * quarantine (synthetic ones too, so the reroute cannot get the same number back), so a late
 * message to it reaches no one. The
 * session keeps its id, gets a fresh
 * `expires_at`, and the reroute is a provision: it counts against the caller's rate and (free
 * tier) allowance and is billable (at once if the session already yielded a code, else once one
 * arrives).
 *
 * One transaction, locks in the one order (credential, account, session row, numbers): the old
 * number is released before the new one is taken (a session holds one number at a time); if no
 * number is free, everything rolls back and the session keeps its old number.
 */
import type { Principal } from '../../auth/principal.ts';
import { AppError } from '../../errors/index.ts';
import type { DomainContext } from '../context.ts';
import { assignNumber, releaseNumber } from '../numbers/pool.ts';
import { recordProvision } from '../usage/record.ts';
import { provisionCounts, refusalOf } from './limits.ts';
import { noNumber } from './open.ts';
import { sessionEndedError } from './read.ts';
import {
  effectiveState,
  SESSION_COLUMNS,
  type SessionRow,
  type SessionView,
  toSessionView,
} from './views.ts';

export interface RerouteResult {
  session: SessionView;
  previousNumber: string;
}

export async function rerouteSession(
  ctx: DomainContext,
  principal: Principal,
  sessionId: string,
): Promise<RerouteResult> {
  const now = ctx.clock();
  const { row, previousNumber } = await ctx.em.transactional(async (tx) => {
    const counts = await provisionCounts(tx, principal, now, { countActive: false });
    // The rate first; a free account's allowance only once the session is known to be reroutable.
    const refusal = refusalOf(counts, now, ctx.settings.freeTierMonthlySessions);
    if (refusal && refusal.code !== 'allowance_exhausted') throw refusal;
    // `for no key update`: ingest's `for share` on the same row waits for us, so a message is
    // bound either to the old number (before) or the new one (after), never half-way.
    const [current] = await tx.execute<SessionRow[]>(
      `select ${SESSION_COLUMNS} from challenge_session where id = ? and account_id = ?
       for no key update`,
      [sessionId, principal.accountId],
    );
    if (!current) throw new AppError('not_found', 'No such session');
    if (effectiveState(current, now) !== 'active') throw sessionEndedError(current, now);
    if (current.channel !== 'sms_otp' || !current.number || !current.number_type) {
      throw new AppError('invalid_request', 'Only sms_otp sessions have a number to reroute');
    }
    if (refusal) throw refusal;

    await releaseNumber(tx, sessionId, now, ctx.settings.quarantine);
    const number = await assignNumber(tx, sessionId, current.number_type, now);
    if (!number) throw await noNumber(tx, current.number_type, now);
    const expiresAt = new Date(now.getTime() + ctx.settings.sessionTtl * 1000);
    const [updated] = await tx.execute<SessionRow[]>(
      `update challenge_session set number = ?, expires_at = ?, reroute_count = reroute_count + 1,
         updated_at = ?
       where id = ?
       returning ${SESSION_COLUMNS}`,
      [number, expiresAt, now, sessionId],
    );
    await recordProvision(
      tx,
      {
        accountId: principal.accountId,
        credentialId: principal.credentialId,
        agentId: principal.agentId,
        sessionId,
        kind: 'session_rerouted',
        channel: current.channel,
        billable: current.first_code_at !== null,
      },
      now,
    );
    return { row: updated!, previousNumber: current.number };
  });

  const session = toSessionView(row, now);
  ctx.log.info(
    { sessionId, accountId: principal.accountId, state: 'active', rerouted: true },
    'session rerouted',
  );
  ctx.background.run(
    async () => {
      await ctx.events.publish('session', sessionId, {
        type: 'rerouted',
        sessionId,
        number: session.number!,
        previousNumber,
        expiresAt: session.expiresAt.toISOString(),
      });
      await ctx.events.publish('account', principal.accountId, {
        type: 'session.rerouted',
        sessionId,
        at: now.toISOString(),
      });
    },
    (error) => ctx.log.warn({ err: error, sessionId }, 'session event not published'),
  );
  return { session, previousNumber };
}
