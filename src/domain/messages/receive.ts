/**
 * receive: the one path every carrier's message takes (Twilio webhook, synthetic endpoint, SMTP).
 *
 * 1. Take what ingest found in the message (the extractor, src/extract, ran before any lock was
 *    held: the domain never reads message text), seal the raw body.
 * 2. One statement (one implicit transaction, one round trip): find the session holding the
 *    address at this moment (active and unexpired, row-locked so a concurrent close or reroute is
 *    strictly before or after us); store the message once (`on conflict (dedupe_key) do
 *    nothing`: a carrier's retry finds the first copy); if it is bound and yielded something,
 *    store the verdict and, for a code or link, mark the session's usage billable.
 *    A session that requires an authenticated sender (issue 21) gets no verdict from a message
 *    whose sender is not authenticated (DMARC pass) or whose `From` is not of the target's
 *    registrable domain: the message is stored with `rejected`, the wait goes on.
 * 3. After commit — never before — hand the verdict to the local waiter it was claimed for, or
 *    publish it on `session:<id>` and mark it published (the outbox mark; the relay republishes
 *    verdicts a crash left unmarked).
 * The caller acknowledges the carrier only when this resolves, i.e. after the commit: a message
 * the carrier was told we have is durably ours. A message nobody held is stored unrouted (no
 * session) and reaches no one.
 */
import { createHash } from 'node:crypto';
import { executePrepared, prepared } from '../../db/prepared.ts';
import { newId } from '../../entities/base.ts';
import type { ChallengeSession, SessionChannel } from '../../entities/challenge-session.ts';
import type {
  MessageCarrier,
  InboundMessage as MessageEntity,
  MessageMedium,
  MessageRejection,
  SenderAuthentication,
} from '../../entities/inbound-message.ts';
import type { OuterRow, RowOf } from '../../entities/row.ts';
import type { Verdict, VerdictKind } from '../../entities/verdict.ts';
import { AppError } from '../../errors/index.ts';
import type { DomainContext } from '../context.ts';
import { registrable } from '../sessions/target-policy.ts';
import { inSpan } from '../spans.ts';
import type { DeliveredVerdict } from '../verdicts/delivered.ts';
import { announceVerdict, returnClaimed } from '../verdicts/outbox.ts';
import { enqueueCte } from '../webhooks/events.ts';

export interface InboundMessage {
  medium: MessageMedium;
  carrier: MessageCarrier;
  /** E.164 for SMS; the inbox address (any case) for email. */
  to: string;
  from: string;
  /** The bytes as received (SMS text, or the whole RFC 5322 message): sealed, never returned. */
  raw: Buffer;
  /**
   * Email: `raw` gzip-compressed (RFC 1952, magic `1f 8b`, which no RFC 5322 message starts with),
   * sealed in its place. Storing a 1 MiB body holds the embedded database (in-process) ~0.1-0.3 s;
   * crafted mail compresses a hundredfold, real mail three to five times.
   */
  rawGzipped?: Buffer | undefined;
  /**
   * What the extractor found, run by ingest before this call (SMS: in the request; email: once per
   * message in the mail reader's worker pool, whatever the number of recipients).
   */
  extraction: MessageFindings;
  /** Email: who sent it and what SPF, DKIM and DMARC said (ingest/email/sender-auth.ts). */
  sender?: SenderAuthentication | undefined;
  /** The carrier's own id (MessageSid; Message-ID): a repeat is stored once. */
  externalId?: string | undefined;
  /**
   * Synthetic delivery: only to a synthetic number held by an active session of this account;
   * otherwise `not_found` and nothing is stored (a customer must not write into other tenants').
   */
  onlyForAccount?: string | undefined;
}

/**
 * The part of an extraction (src/extract's `Extraction`) the domain stores and delivers. Declared
 * here so the domain depends on no extractor: ingest hands over whatever the extractor returned.
 */
export interface MessageFindings {
  readonly otp_code: string | null;
  readonly magic_link: string | null;
  readonly webauthn_required: boolean;
  /** 0..1: how sure the extractor is of the whole verdict. */
  readonly confidence: number;
}

export interface ReceiveResult {
  messageId: string;
  sessionId: string | null;
  verdictId: string | null;
  /** True when this was a repeat of a message already stored (nothing new was written). */
  duplicate: boolean;
  /** Why a message that had something to deliver yielded no verdict (issue 21). */
  rejected: MessageRejection | null;
}

export function receiveMessage(
  ctx: DomainContext,
  message: InboundMessage,
): Promise<ReceiveResult> {
  return inSpan('latchkey.message.receive', { 'latchkey.medium': message.medium }, () =>
    receive(ctx, message),
  );
}

async function receive(ctx: DomainContext, message: InboundMessage): Promise<ReceiveResult> {
  const extraction = message.extraction;
  const to = message.medium === 'email' ? message.to.toLowerCase() : message.to;
  const messageId = newId('msg');
  const sealedRaw = ctx.sealer.seal(message.rawGzipped ?? message.raw, messageId);
  const dedupeKey = message.externalId
    ? createHash('sha256')
        .update(
          `${message.carrier}\0${message.medium === 'email' ? to : ''}\0${message.externalId}`,
        )
        .digest('hex')
    : null;
  const billable = extraction.otp_code !== null || extraction.magic_link !== null;
  const verdictId = newId('vrd');
  const secret = ctx.sealer.seal(
    Buffer.from(
      JSON.stringify({ otp_code: extraction.otp_code, magic_link: extraction.magic_link }),
    ),
    verdictId,
  );
  const sender = message.sender ?? null;
  const senderJson = sender ? JSON.stringify(sender) : null;
  const senderDomain = sender?.domain ? registrable(sender.domain.toLowerCase()) : null;
  const linkDomain = extraction.magic_link ? linkDomainOf(extraction.magic_link) : null;
  const now = ctx.clock();
  const addressColumn = message.medium === 'sms' ? 'number' : 'inbox_address';
  // A waiter on this instance for this address: the verdict may be born consumed for it.
  const claimant = ctx.waiters.reserve(to);

  const rows = await executePrepared<StoredRow>(ctx.em, storeStatement(addressColumn, billable), [
    // h
    to,
    now,
    // ok
    message.onlyForAccount ?? null,
    message.onlyForAccount ?? null,
    // m
    messageId,
    message.medium,
    message.carrier,
    to.slice(0, 320),
    message.from.slice(0, 320),
    dedupeKey,
    sealedRaw,
    message.raw.length,
    verdictKind(extraction, 'magic_link'),
    verdictKind(extraction, 'sms_otp'),
    now,
    senderJson,
    sender?.authenticated ?? false,
    senderDomain,
    // v
    verdictId,
    secret,
    extraction.webauthn_required,
    extraction.confidence,
    now,
    linkDomain,
    claimant?.sessionId ?? null,
    claimant?.consumer ?? null,
    now,
    // s
    now,
    now,
    // u
    now,
    now,
    // wh
    message.medium === 'sms' ? message.from.slice(0, 320) : null,
    now.toISOString(),
    senderJson,
    now,
  ]).catch((error) => {
    claimant?.cancel();
    throw error;
  });
  const stored = rows[0]!;
  const claimed = claimant !== null && stored.consumed_by === claimant.consumer;
  if (claimant && !claimed) claimant.cancel();
  if (!stored.allowed) {
    throw new AppError(
      'not_found',
      'No active session of this account holds that synthetic number',
    );
  }
  if (!stored.message_id) {
    // A repeat of a message already stored: acknowledge it again, change nothing.
    const [first] = await ctx.em.execute<Pick<RowOf<MessageEntity>, 'id' | 'session_id'>[]>(
      'select id, session_id from inbound_message where dedupe_key = ?',
      [dedupeKey],
    );
    return {
      messageId: first!.id,
      sessionId: first!.session_id,
      verdictId: null,
      duplicate: true,
      rejected: null,
    };
  }
  if (stored.verdict_id && stored.session_id && stored.kind) {
    if (stored.webhooks > 0) ctx.webhooks.wake();
    const verdict: DeliveredVerdict = {
      verdictId: stored.verdict_id,
      messageId: stored.message_id,
      sessionId: stored.session_id,
      kind: stored.kind,
      otpCode: extraction.otp_code,
      magicLink: extraction.magic_link,
      webauthnRequired: extraction.webauthn_required,
      receivedAt: now,
      from: message.from.slice(0, 320),
      medium: message.medium,
      sender,
      linkDomain: stored.kind === 'magic_link' ? linkDomain : null,
      linkMatchesTarget: linkMatches(
        stored.kind === 'magic_link' ? linkDomain : null,
        stored.target_domain,
      ),
    };
    // One structured line per verdict reached: ids and kind, never the code or the link.
    ctx.log.info(
      { sessionId: verdict.sessionId, verdictId: verdict.verdictId, verdict: verdict.kind },
      'verdict reached',
    );
    if (!claimed) await announceVerdict(ctx, verdict);
    else if (!claimant.fulfil(verdict)) await returnClaimed(ctx, verdict, claimant.consumer);
    const accountId = stored.account_id!;
    ctx.background.run(
      () =>
        ctx.events.publish('account', accountId, {
          type: 'session.verdict',
          sessionId: verdict.sessionId,
          kind: verdict.kind,
          at: now.toISOString(),
        }),
      (error) => ctx.log.warn({ err: error, verdictId: verdict.verdictId }, 'event not published'),
    );
  }
  return {
    messageId: stored.message_id,
    sessionId: stored.session_id,
    verdictId: stored.verdict_id,
    duplicate: false,
    rejected: stored.rejected,
  };
}

/** The registrable domain of a link's host (public suffix list); null for a link without one. */
export function linkDomainOf(link: string): string | null {
  try {
    const host = new URL(link).hostname.replace(/\.$/, '').toLowerCase();
    return host ? registrable(host) : null;
  } catch {
    return null;
  }
}

/** Whether a magic link's domain is the target's; null when either is unknown (no target). */
export function linkMatches(linkDomain: string | null, targetDomain: string | null) {
  return linkDomain === null || targetDomain === null ? null : linkDomain === targetDomain;
}

/**
 * The store, in one statement, so one round trip and one implicit transaction (the hot path):
 * - h: the session holding the address now, row-locked against a concurrent close or reroute
 *   (the stronger lock at once when the message will update the session: two share locks
 *   upgrading on the same row would deadlock);
 * - ok: whether a synthetic delivery is allowed (held by that account, a synthetic number);
 * - m: the message, stored once per dedupe key, bound to h (or to nobody), with its outcome for
 *   h's channel (a magic_link session prefers the link), its sender results, and `rejected` when h
 *   requires an authenticated sender (of its target's registrable domain) and this is not one;
 * - v: the verdict, when bound, not rejected, and the outcome is something to deliver — consumed by (and handed
 *   to) the reserved local waiter when that waiter waits on the session the message is for;
 * - s, u: for a code or link, the session's first_code_at and its usage, now billable.
 * - wh: the verdict's customer webhooks, in the outbox with the verdict (never the code itself).
 * Data-modifying CTEs all run to completion whether or not the final select reads them.
 */
function storeStatementText(addressColumn: 'number' | 'inbox_address', updatesSession: boolean) {
  return `
    with h as (
      select id, account_id, channel, number_type, target_domain, require_authenticated_sender
      from challenge_session
      where ${addressColumn} = ? and state = 'active' and expires_at > ?
      ${updatesSession ? 'for no key update' : 'for share'}),
    ok as (
      select ?::text is null
        or exists (select 1 from h where account_id = ?::text and number_type = 'synthetic') as ok),
    m as (
      insert into inbound_message (id, session_id, medium, carrier, to_address, from_address,
        dedupe_key, raw_body, size_bytes, outcome, received_at, sender, rejected)
      select ?, h.id, ?, ?, ?, ?, ?, ?, ?,
        coalesce(case when h.channel = 'magic_link' then ?::text else ?::text end, 'none'), ?,
        ?::jsonb,
        case when h.require_authenticated_sender and not (?::boolean
            and (h.target_domain is null or h.target_domain = ?::text))
          then 'sender_not_authenticated' end
      from (select 1) as one left join h on true
      where (select ok from ok)
      on conflict (dedupe_key) do nothing
      returning id, session_id, outcome, rejected),
    v as (
      insert into verdict (id, message_id, session_id, kind, secret, webauthn_required,
        confidence, received_at, link_domain, consumed_at, consumed_by, published_at)
      select ?, m.id, m.session_id, m.outcome, ?, ?, ?, ?,
        case when m.outcome = 'magic_link' then ?::text end, c.at, c.consumer, c.at
      from m left join (select ?::text as session_id, ?::text as consumer, ?::timestamptz as at) c
        on c.session_id = m.session_id
      where m.session_id is not null and m.outcome <> 'none' and m.rejected is null
      returning id, kind, consumed_by, link_domain),
    s as (
      update challenge_session set first_code_at = coalesce(first_code_at, ?), updated_at = ?
      where id = (select session_id from m) and (select kind from v) in ('otp_code', 'magic_link')
      returning id),
    u as (
      update usage_event set status = 'billable', settled_at = ?, updated_at = ?
      where session_id = (select id from s) and status = 'pending'),
    ${enqueueCte(
      'wh',
      `select h.account_id, 'session.verdict'::text as event_type,
         jsonb_strip_nulls(jsonb_build_object('session_id', m.session_id, 'channel', h.channel,
           'verdict', v.kind, 'from_number', ?::text, 'received_at', ?::text,
           'sender', ?::jsonb, 'link_domain', v.link_domain,
           'link_matches_target', case when v.link_domain is not null and h.target_domain is not null
             then v.link_domain = h.target_domain end)) as data,
         v.id as verdict_id, ?::timestamptz as occurred_at
       from v join m on true join h on h.id = m.session_id`,
    )}
    select (select ok from ok) as allowed, m.id as message_id, m.session_id, v.id as verdict_id,
      v.kind, v.consumed_by, (select account_id from h) as account_id,
      (select target_domain from h) as target_domain, m.rejected,
      (select count(*)::int from wh) as webhooks
    from (select 1) as one left join m on true left join v on true`;
}

/** The four variants, each a named prepared statement (issue 16): planned once per connection. */
const STORE_STATEMENTS = new Map(
  (['number', 'inbox_address'] as const).flatMap((column) =>
    [true, false].map((updatesSession) => [
      `${column}:${updatesSession}`,
      prepared(
        `message_store_${column}_${updatesSession ? 'billable' : 'plain'}`,
        storeStatementText(column, updatesSession),
      ),
    ]),
  ),
);

function storeStatement(addressColumn: 'number' | 'inbox_address', updatesSession: boolean) {
  return STORE_STATEMENTS.get(`${addressColumn}:${updatesSession}`)!;
}

/**
 * What the store statement answers: whether the address was allowed, then the stored message, its
 * verdict and its session, each column null when that part was not written or not found.
 */
type StoredRow = {
  allowed: boolean;
  message_id: RowOf<MessageEntity>['id'] | null;
  verdict_id: RowOf<Verdict>['id'] | null;
  /** Customer webhook deliveries written with the verdict (the worker is woken only for some). */
  webhooks: number;
} & OuterRow<Pick<RowOf<MessageEntity>, 'session_id' | 'rejected'>> &
  OuterRow<Pick<RowOf<Verdict>, 'kind' | 'consumed_by'>> &
  OuterRow<Pick<RowOf<ChallengeSession>, 'account_id' | 'target_domain'>>;

/**
 * What the session gets from an extraction: a magic_link session prefers the link, the others the
 * code; a passkey request is reported when there is neither. Null: nothing to deliver.
 */
export function verdictKind(
  extraction: MessageFindings,
  channel: SessionChannel,
): VerdictKind | null {
  const { otp_code: code, magic_link: link } = extraction;
  if (channel === 'magic_link' && link) return 'magic_link';
  if (code) return 'otp_code';
  if (link) return 'magic_link';
  if (extraction.webauthn_required) return 'webauthn_required';
  return null;
}
