/**
 * close: an active session becomes `completed` (release_number, DELETE /v1/sessions/:id).
 *
 * One statement (atomic without an explicit transaction): the conditional state change (`where
 * state = 'active' and expires_at > now`, so a racing close, expiry or second instance cannot
 * both win), the number's release (into quarantine, if programmable), and the settlement of its usage (not billed
 * unless a code arrived), and the `session.closed` webhook deliveries (outbox). Then `ended` wakes the session's waiters with a clear error. Closing a
 * completed session again answers the same (idempotent); closing an expired one is
 * `session_expired`.
 */
import type { Principal } from '../../auth/principal.ts';
import { executePrepared, prepared } from '../../db/prepared.ts';
import type { DomainContext } from '../context.ts';
import { RELEASED_AVAILABLE_AT, releasedAvailableAtParams } from '../numbers/pool.ts';
import { enqueueCte } from '../webhooks/events.ts';
import { loadSessionRow, sessionEndedError } from './read.ts';
import { SESSION_COLUMNS, type SessionRow, type SessionView, toSessionView } from './views.ts';

export async function closeSession(
  ctx: DomainContext,
  principal: Principal,
  sessionId: string,
): Promise<{ status: 'completed'; session: SessionView }> {
  const now = ctx.clock();
  const [closed] = await executePrepared<SessionRow & { webhooks: number }>(
    ctx.em,
    CLOSE_STATEMENT,
    [
      now,
      now,
      sessionId,
      principal.accountId,
      now,
      ...releasedAvailableAtParams(now, ctx.settings.quarantine),
      now,
      now,
      now.toISOString(),
      now,
    ],
  );
  let row: SessionRow | undefined = closed;
  const changed = closed !== undefined;
  if (!row) {
    row = await loadSessionRow(ctx, principal, sessionId);
    if (row.state !== 'completed') throw sessionEndedError(row, now);
  }

  if (changed) {
    // Only a delivery just written needs the worker now; its poll finds anything else.
    if (closed && closed.webhooks > 0) ctx.webhooks.wake();
    const at = now.toISOString();
    ctx.log.info(
      { sessionId, accountId: principal.accountId, state: 'completed' },
      'session closed',
    );
    ctx.background.run(
      async () => {
        await ctx.events.publish('session', sessionId, {
          type: 'ended',
          sessionId,
          state: 'completed',
          at,
        });
        await ctx.events.publish('account', principal.accountId, {
          type: 'session.closed',
          sessionId,
          at,
        });
      },
      (error) => ctx.log.warn({ err: error, sessionId }, 'session event not published'),
    );
  }
  return { status: 'completed', session: toSessionView(row, now) };
}

/**
 * closed: the conditional state change; freed: its number; settled: its usage; wh: its
 * `session.closed` deliveries. A named prepared statement (issue 16).
 */
const CLOSE_STATEMENT = prepared(
  'session_close',
  `with closed as (
     update challenge_session set state = 'completed', ended_at = ?, updated_at = ?
     where id = ? and account_id = ? and state = 'active' and expires_at > ?
     returning ${SESSION_COLUMNS}),
   freed as (
     update phone_number set held_by = null, available_at = ${RELEASED_AVAILABLE_AT}
     where held_by = (select id from closed)),
   settled as (
     update usage_event set status = 'not_billed', settled_at = ?, updated_at = ?
     where session_id = (select id from closed) and status = 'pending'),
   ${enqueueCte(
     'wh',
     `select account_id, 'session.closed'::text as event_type,
        jsonb_build_object('session_id', id, 'channel', channel, 'ended_at', ?::text) as data,
        null::text as verdict_id, ?::timestamptz as occurred_at
      from closed`,
   )}
   select closed.*, (select count(*)::int from wh) as webhooks from closed`,
);
