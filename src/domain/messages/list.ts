/**
 * The message listing of a session (get_messages, GET /v1/sessions/:id/messages): metadata and
 * parsed results, never a raw body.
 *
 * Two ways in. `reveal: false` (the GraphQL `messages` query) shows metadata only: codes and links
 * hidden, nothing consumed, so it is safe to run over GET and to repeat. `reveal: true` (the
 * `readMessages` mutation, behind GET /v1/sessions/:id/messages and `get_messages`) shows codes and
 * links to a caller holding `otp:read`, and for that caller reading them is consuming them — the
 * page's unconsumed verdicts are taken by the same conditional update a waiter uses, so a later
 * wait does not hand the same code out again. Without `otp:read` the codes are hidden and nothing
 * is consumed. Messages of closed and expired sessions remain listable.
 */
import { z } from 'zod';
import { hasScope, type Principal } from '../../auth/principal.ts';
import type {
  InboundMessage,
  MessageCarrier,
  MessageMedium,
  MessageOutcome,
  MessageRejection,
  SenderAuthentication,
} from '../../entities/inbound-message.ts';
import type { RowOf } from '../../entities/row.ts';
import type { Verdict, VerdictKind } from '../../entities/verdict.ts';
import { AppError, validate } from '../../errors/index.ts';
import type { DomainContext } from '../context.ts';
import { cursor, pageLimit } from '../limits.ts';
import { loadSessionRow } from '../sessions/read.ts';
import { consumeListed, openSecret } from '../verdicts/consume.ts';
import { linkMatches } from './receive.ts';

export interface MessageView {
  id: string;
  sessionId: string;
  medium: MessageMedium;
  carrier: MessageCarrier;
  from: string;
  to: string;
  receivedAt: Date;
  /** What the extractor found: `otp_code`, `magic_link`, `webauthn_required` or `none`. */
  outcome: MessageOutcome;
  /** Email: the From address and whether SPF/DKIM/DMARC vouch for it; null for SMS. */
  sender: SenderAuthentication | null;
  /** Set when the session required an authenticated sender and this was not one. */
  rejected: MessageRejection | null;
  /** Null when the message yielded nothing to deliver. */
  verdict: {
    kind: VerdictKind;
    /** Null when hidden (no `otp:read`) or erased at retention. */
    otpCode: string | null;
    magicLink: string | null;
    webauthnRequired: boolean;
    consumedAt: Date | null;
    /** Magic links: the link's registrable domain. */
    linkDomain: string | null;
    /** Magic links: whether that is the target's registrable domain; null without a target. */
    linkMatchesTarget: boolean | null;
  } | null;
  /** True when codes and links were withheld: a metadata listing, or no `otp:read`. */
  codesHidden: boolean;
}

export const listMessagesInput = z.strictObject({
  after: cursor(),
  limit: pageLimit(),
});
export type ListMessagesInput = z.input<typeof listMessagesInput>;

/** Null in every column when the message has no verdict (a left join). */
type Joined<T> = { [K in keyof T]: T[K] | null };

/** A message and its verdict, if any: the selected columns, typed by their entities. */
type Row = Pick<
  RowOf<InboundMessage>,
  | 'id'
  | 'medium'
  | 'carrier'
  | 'from_address'
  | 'to_address'
  | 'received_at'
  | 'outcome'
  | 'sender'
  | 'rejected'
> &
  Joined<
    Pick<RowOf<Verdict>, 'link_domain' | 'kind' | 'secret' | 'webauthn_required' | 'consumed_at'>
  > & {
    verdict_id: string | null;
  };

export async function listMessages(
  ctx: DomainContext,
  principal: Principal,
  sessionId: string,
  rawInput: ListMessagesInput,
  { reveal }: { reveal: boolean },
): Promise<{ messages: MessageView[]; hasMore: boolean }> {
  const input = validate(listMessagesInput, rawInput);
  const session = await loadSessionRow(ctx, principal, sessionId);
  type Cursor = Pick<RowOf<InboundMessage>, 'received_at' | 'id'>;
  let cursor: Cursor | undefined;
  if (input.after) {
    [cursor] = await ctx.em.execute<Cursor[]>(
      'select received_at, id from inbound_message where id = ? and session_id = ?',
      [input.after, sessionId],
    );
    if (!cursor) {
      throw new AppError('invalid_request', 'after: no such message in this session', {
        extra: { field: 'after' },
      });
    }
  }
  const rows = await ctx.em.execute<Row[]>(
    `select m.id, m.medium, m.carrier, m.from_address, m.to_address, m.received_at, m.outcome,
       m.sender, m.rejected, v.link_domain, v.id as verdict_id, v.kind, v.secret, v.webauthn_required, v.consumed_at
     from inbound_message m left join verdict v on v.message_id = m.id
     where m.session_id = ? ${cursor ? 'and (m.received_at, m.id) > (?, ?)' : ''}
     order by m.received_at, m.id
     limit ?`,
    [sessionId, ...(cursor ? [cursor.received_at, cursor.id] : []), input.limit + 1],
  );
  const page = rows.slice(0, input.limit);
  const canRead = reveal && hasScope(principal, 'otp:read');

  const consumedNow = new Map<string, Date>();
  const unconsumed = page.filter((r) => r.verdict_id && !r.consumed_at).map((r) => r.verdict_id!);
  if (canRead && unconsumed.length) {
    const { taken, at } = await consumeListed(
      ctx,
      unconsumed,
      `messages:${principal.credentialId}`,
    );
    for (const id of taken) consumedNow.set(id, at);
  }

  const messages = page.map((row): MessageView => {
    const secret = canRead && row.verdict_id ? openSecret(ctx, row.verdict_id, row.secret) : null;
    const consumedAt = row.consumed_at
      ? new Date(row.consumed_at)
      : (consumedNow.get(row.verdict_id ?? '') ?? null);
    return {
      id: row.id,
      sessionId,
      medium: row.medium,
      carrier: row.carrier,
      from: row.from_address,
      to: row.to_address,
      receivedAt: new Date(row.received_at),
      outcome: row.outcome,
      sender: row.sender,
      rejected: row.rejected,
      verdict: row.verdict_id
        ? {
            kind: row.kind!,
            otpCode: secret?.otp_code ?? null,
            magicLink: secret?.magic_link ?? null,
            webauthnRequired: Boolean(row.webauthn_required),
            consumedAt,
            linkDomain: row.link_domain,
            linkMatchesTarget: linkMatches(row.link_domain, session.target_domain),
          }
        : null,
      codesHidden: !canRead,
    };
  });
  return { messages, hasMore: rows.length > input.limit };
}
