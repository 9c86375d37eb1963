/**
 * Consumption: the one place a verdict is handed out, exactly once, whether a waiter takes the
 * oldest one (`consumeNext`) or a message listing with otp:read takes what it shows
 * (`consumeListed`, messages/list.ts).
 *
 * A single conditional UPDATE (`… and consumed_at is null`) decides the winner among any number of
 * waiters and listings on any instances. The row is picked `FOR UPDATE` — deliberately not
 * `SKIP LOCKED`: a row is also locked, for an instant, by the outbox mark and the relay, and a
 * waiter that skipped it then would miss a verdict it was woken for. A loser waits for the
 * winner's one-statement transaction, re-checks the row (now consumed), moves on to the next
 * unconsumed verdict or finds none and keeps waiting. Verdicts are handed out oldest first. The
 * code and link are unsealed only for the winner.
 */
import { executePrepared, prepared } from '../../db/prepared.ts';
import type { ChallengeSession } from '../../entities/challenge-session.ts';
import type { InboundMessage } from '../../entities/inbound-message.ts';
import type { RowOf } from '../../entities/row.ts';
import type { Verdict } from '../../entities/verdict.ts';
import type { DomainContext } from '../context.ts';
import { inSpan } from '../spans.ts';
import type { DeliveredVerdict } from './delivered.ts';

/** The taken verdict, its message's sender and its session's target domain. */
type ConsumedRow = Pick<
  RowOf<Verdict>,
  | 'id'
  | 'message_id'
  | 'session_id'
  | 'kind'
  | 'secret'
  | 'webauthn_required'
  | 'received_at'
  | 'link_domain'
> &
  Pick<RowOf<InboundMessage>, 'from_address' | 'medium' | 'sender'> &
  Pick<RowOf<ChallengeSession>, 'target_domain'>;

export interface VerdictSecret {
  otp_code: string | null;
  magic_link: string | null;
}

/** Unseals a verdict's code and link (null after retention erased them). */
export function openSecret(ctx: DomainContext, verdictId: string, secret: Buffer | null) {
  if (!secret) return { otp_code: null, magic_link: null };
  return JSON.parse(ctx.sealer.open(secret, verdictId).toString('utf8')) as VerdictSecret;
}

/** Takes the oldest unconsumed verdict of the session for `consumer`; null when there is none. */
export function consumeNext(
  ctx: DomainContext,
  sessionId: string,
  consumer: string,
): Promise<DeliveredVerdict | null> {
  return inSpan('latchkey.verdict.consume', { 'latchkey.session_id': sessionId }, () =>
    consume(ctx, sessionId, consumer),
  );
}

/** The wait's read: takes the oldest unconsumed verdict. A named prepared statement (issue 16). */
const CONSUME_NEXT = prepared(
  'verdict_consume_next',
  `with taken as (
       update verdict set consumed_at = ?, consumed_by = ?
       where id = (
         select id from verdict
         where session_id = ? and consumed_at is null
         order by received_at, id
         limit 1
         for update)
         and consumed_at is null
       returning id, message_id, session_id, kind, secret, webauthn_required, received_at,
         link_domain)
     select taken.*, m.from_address, m.medium, m.sender, s.target_domain
     from taken join inbound_message m on m.id = taken.message_id
       join challenge_session s on s.id = taken.session_id`,
);

async function consume(
  ctx: DomainContext,
  sessionId: string,
  consumer: string,
): Promise<DeliveredVerdict | null> {
  const [row] = await executePrepared<ConsumedRow>(ctx.em, CONSUME_NEXT, [
    ctx.clock(),
    consumer,
    sessionId,
  ]);
  if (!row) return null;
  const secret = openSecret(ctx, row.id, row.secret);
  return {
    verdictId: row.id,
    messageId: row.message_id,
    sessionId: row.session_id,
    kind: row.kind,
    otpCode: secret.otp_code,
    magicLink: secret.magic_link,
    webauthnRequired: row.webauthn_required,
    receivedAt: new Date(row.received_at),
    from: row.from_address,
    medium: row.medium,
    sender: row.sender,
    linkDomain: row.link_domain,
    linkMatchesTarget:
      row.link_domain === null || row.target_domain === null
        ? null
        : row.link_domain === row.target_domain,
  };
}

/**
 * Takes, for `consumer`, those of the listed verdicts nobody has consumed yet (one conditional
 * UPDATE, so a waiter and a listing never both get one); the ids taken and when.
 */
export async function consumeListed(
  ctx: DomainContext,
  verdictIds: readonly string[],
  consumer: string,
): Promise<{ taken: Set<string>; at: Date }> {
  const at = ctx.clock();
  if (verdictIds.length === 0) return { taken: new Set(), at };
  const rows = await ctx.em.execute<Pick<RowOf<Verdict>, 'id'>[]>(
    `update verdict set consumed_at = ?, consumed_by = ?
     where id in (?) and consumed_at is null
     returning id`,
    [at, consumer, verdictIds],
  );
  return { taken: new Set(rows.map((row) => row.id)), at };
}
