/**
 * The expiry sweep: active sessions whose `expires_at` passed become `expired`, their numbers go
 * into quarantine counted from the expiry (the moment they stopped serving; a synthetic number
 * rests not at all, see numbers/pool.ts), and their pending
 * usage is settled unbilled, and `session.expired` webhooks are queued — all in one statement, so it is atomic without a transaction.
 *
 * Safe with several instances sweeping at once: due sessions are claimed `FOR UPDATE SKIP LOCKED`
 * (each is expired by exactly one sweep) and the state change is conditional. Until the sweep
 * runs, every read already treats such a session as expired (see views.ts); the sweep only makes
 * it durable, frees its number and tells its listeners.
 */
import type { DomainContext } from '../context.ts';
import { enqueueCte } from '../webhooks/events.ts';

const BATCH = 500;

export async function expireDueSessions(ctx: DomainContext): Promise<number> {
  const now = ctx.clock();
  const rows = await ctx.em.execute<{ id: string; account_id: string; expires_at: string }[]>(
    `with due as (
       select id from challenge_session
       where state = 'active' and expires_at <= ?
       order by expires_at
       limit ?
       for update skip locked),
     ended as (
       update challenge_session s set state = 'expired', ended_at = s.expires_at, updated_at = ?
       from due where s.id = due.id and s.state = 'active'
       returning s.id, s.account_id, s.expires_at, s.channel),
     freed as (
       update phone_number n set held_by = null,
         available_at = case when n.type = 'synthetic' then ended.expires_at
           else ended.expires_at + make_interval(secs => ?) end
       from ended where n.held_by = ended.id
       returning n.e164),
     settled as (
       update usage_event u set status = 'not_billed', settled_at = ?, updated_at = ?
       from ended where u.session_id = ended.id and u.status = 'pending'
       returning u.id),
     ${enqueueCte(
       'wh',
       `select account_id, 'session.expired'::text as event_type,
          jsonb_build_object('session_id', id, 'channel', channel,
            'ended_at', to_char(expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
            as data,
          null::text as verdict_id, ?::timestamptz as occurred_at
        from ended`,
     )}
     select id, account_id, expires_at from ended`,
    [now, BATCH, now, ctx.settings.quarantine, now, now, now],
  );
  if (rows.length) ctx.webhooks.wake();
  for (const row of rows) {
    const at = new Date(row.expires_at).toISOString();
    ctx.log.info(
      { sessionId: row.id, accountId: row.account_id, state: 'expired' },
      'session expired',
    );
    ctx.background.run(
      async () => {
        await ctx.events.publish('session', row.id, {
          type: 'ended',
          sessionId: row.id,
          state: 'expired',
          at,
        });
        await ctx.events.publish('account', row.account_id, {
          type: 'session.expired',
          sessionId: row.id,
          at,
        });
      },
      (error) => ctx.log.warn({ err: error, sessionId: row.id }, 'session event not published'),
    );
  }
  return rows.length;
}
