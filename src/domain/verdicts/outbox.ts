/**
 * Verdict events after commit, with an outbox mark so none is lost.
 *
 * `announceVerdict` runs after the statement that stored the verdict committed: it publishes on
 * `session:<id>` (waiters wake at once on this instance, through Redis on the others), then marks
 * `published_at`, batched in the background (`PublishedMarks`, published-marks.ts). A verdict handed straight to a
 * waiter of this instance is stored consumed and marked, and needs no announcement.
 * If the process dies between commit and publish, or Redis refused the event, the verdict stays
 * unmarked and `relayUnpublished` — run by the sweeper on every instance — claims it (SKIP
 * LOCKED, marking it in the same statement), publishes it after that commit, and unmarks it again
 * if publishing failed. A verdict may thus be announced twice; that is harmless, because delivery
 * is decided by the atomic consume, not by the event.
 */
import type { RowOf } from '../../entities/row.ts';
import type { Verdict, VerdictKind } from '../../entities/verdict.ts';
import type { DomainContext } from '../context.ts';
import { inSpan } from '../spans.ts';
import type { DeliveredVerdict } from './delivered.ts';

export interface VerdictAnnouncement {
  verdictId: string;
  sessionId: string;
  kind: VerdictKind;
  receivedAt: Date;
}

/** How long a verdict may stay unmarked before the relay assumes its publisher is gone. */
const RELAY_GRACE_MS = 5_000;

/** Publishes a committed verdict on its session's topic, then queues its outbox mark. */
export async function announceVerdict(ctx: DomainContext, verdict: VerdictAnnouncement) {
  try {
    const attributes = {
      'latchkey.session_id': verdict.sessionId,
      'latchkey.verdict': verdict.kind,
    };
    await inSpan('latchkey.verdict.publish', attributes, () =>
      ctx.events.publish('session', verdict.sessionId, {
        type: 'verdict',
        sessionId: verdict.sessionId,
        verdictId: verdict.verdictId,
        kind: verdict.kind,
        receivedAt: verdict.receivedAt.toISOString(),
      }),
    );
  } catch (error) {
    // Stored and committed all the same; the relay will announce it.
    ctx.log.warn({ err: error, verdictId: verdict.verdictId }, 'verdict event not published');
    return;
  }
  ctx.marks.add(verdict.verdictId);
}

/**
 * Undoes a hand-off claim whose waiter was gone by the time it came (see waiters.ts): the verdict
 * becomes unconsumed and unannounced again, then is announced to whoever waits next.
 */
export async function returnClaimed(
  ctx: DomainContext,
  verdict: DeliveredVerdict,
  consumer: string,
) {
  const released = await ctx.orm.em.fork().execute<Pick<RowOf<Verdict>, 'id'>[]>(
    `update verdict set consumed_at = null, consumed_by = null, published_at = null
       where id = ? and consumed_by = ?
       returning id`,
    [verdict.verdictId, consumer],
  );
  if (released.length) await announceVerdict(ctx, verdict);
}

/** Announces verdicts left unmarked; returns how many it claimed. */
export async function relayUnpublished(ctx: DomainContext): Promise<number> {
  const now = ctx.clock();
  const claimed = await ctx.em.execute<
    (Pick<RowOf<Verdict>, 'id' | 'session_id' | 'kind' | 'received_at'> & { pending: boolean })[]
  >(
    `with due as (
       select id from verdict
       where published_at is null and received_at < ?
       order by received_at
       limit 100
       for update skip locked)
     update verdict v set published_at = ?
     from due, challenge_session s
     where v.id = due.id and s.id = v.session_id
     returning v.id, v.session_id, v.kind, v.received_at,
       (v.consumed_at is null and s.state = 'active' and s.expires_at > ?) as pending`,
    [new Date(now.getTime() - RELAY_GRACE_MS), now, now],
  );
  for (const row of claimed.filter((r) => r.pending)) {
    try {
      await ctx.events.publish('session', row.session_id, {
        type: 'verdict',
        sessionId: row.session_id,
        verdictId: row.id,
        kind: row.kind,
        receivedAt: new Date(row.received_at).toISOString(),
      });
    } catch (error) {
      ctx.log.warn({ err: error, verdictId: row.id }, 'verdict relay failed; will retry');
      await ctx.em.execute('update verdict set published_at = null where id = ?', [row.id]);
    }
  }
  return claimed.length;
}
