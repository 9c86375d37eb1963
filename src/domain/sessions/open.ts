/**
 * open: a new challenge session with a number (sms_otp), an inbox (email_otp, magic_link) or a
 * stored authenticator (totp: chosen by `authenticatorId`, else by the host of `target`).
 *
 * The order is what makes refusals free and limits exact:
 * 1. validate and check the target policy — pure, before anything is touched;
 * 2. in one statement (one round trip, one implicit transaction; issue 16): lock the credential
 *    and count its provisions and active sessions — for a free account, lock the account and
 *    count its month (limits.ts) — then, only if within the limits, take a number (SKIP LOCKED)
 *    or use a fresh inbox address, insert the session and its usage event, and the
 *    `session.opened` webhook deliveries (the outbox). A totp open chooses its authenticator
 *    in a transaction after the lock, then runs the same statement;
 * 3. after commit, publish `session.opened`.
 * A refusal in step 2 writes nothing (every insert is conditional on the limits, and a missing
 * number inserts no session): no number is held, no usage is written, so a refused or failed
 * provision consumes nothing. The statement answers the counts, so the refusal names its reason.
 */
import { z } from 'zod';
import type { Principal } from '../../auth/principal.ts';
import { executePrepared, prepared } from '../../db/prepared.ts';
import { newId, pooledRandomBytes } from '../../entities/base.ts';
import { numberTypes, sessionChannels } from '../../entities/challenge-session.ts';
import { AppError, validate } from '../../errors/index.ts';
import { chooseAuthenticator } from '../authenticators/authenticators.ts';
import type { DomainContext } from '../context.ts';
import { ASSIGN_NUMBER_SQL, nextNumberAt } from '../numbers/pool.ts';
import { inSpan } from '../spans.ts';
import { enqueueCte } from '../webhooks/events.ts';
import {
  PROVISION_ALLOWED_SQL,
  PROVISION_COUNT_COLUMNS,
  PROVISION_LIMITS_SQL,
  type ProvisionCounts,
  provisionCounts,
  provisionLimitParams,
  refusalOf,
} from './limits.ts';
import { SESSION_COLUMNS, type SessionRow, type SessionView, toSessionView } from './views.ts';

export const openSessionInput = z.strictObject({
  channel: z.enum(sessionChannels).default('sms_otp'),
  /** The site or app the challenge is for: a host name or a URL. */
  target: z.string().trim().min(1).max(2048).optional(),
  /** sms_otp only: which kind of number; by default programmable when any is configured. */
  numberType: z.enum(numberTypes).optional(),
  /** totp only: which of the account's authenticators (else the one for the target's host). */
  authenticatorId: z.string().trim().min(1).max(255).optional(),
  /**
   * email_otp, magic_link: only a message whose sender is authenticated (DMARC pass) and, with a
   * target, of the target's registrable domain yields the verdict (issue 21).
   */
  requireAuthenticatedSender: z.boolean().optional(),
});
export type OpenSessionInput = z.input<typeof openSessionInput>;

export function openSession(
  ctx: DomainContext,
  principal: Principal,
  rawInput: OpenSessionInput = {},
): Promise<SessionView> {
  const attributes = { 'latchkey.account_id': principal.accountId };
  return inSpan('latchkey.session.open', attributes, () => open(ctx, principal, rawInput));
}

async function open(
  ctx: DomainContext,
  principal: Principal,
  rawInput: OpenSessionInput,
): Promise<SessionView> {
  const input = validate(openSessionInput, rawInput);
  if (input.numberType && input.channel !== 'sms_otp') {
    throw new AppError('invalid_request', 'numberType: only sms_otp sessions have a number', {
      extra: { field: 'numberType' },
    });
  }
  if (input.authenticatorId && input.channel !== 'totp') {
    throw new AppError('invalid_request', 'authenticator_id: only totp sessions have one', {
      extra: { field: 'authenticator_id' },
    });
  }
  if (input.channel === 'totp' && !input.authenticatorId && !input.target) {
    throw new AppError(
      'invalid_request',
      'target: a totp session needs target or authenticator_id',
      {
        extra: { field: 'target' },
      },
    );
  }
  if (input.requireAuthenticatedSender && input.channel === 'sms_otp') {
    throw new AppError(
      'invalid_request',
      'requireAuthenticatedSender: only email_otp and magic_link sessions receive email',
      { extra: { field: 'requireAuthenticatedSender' } },
    );
  }
  const target = input.target ? ctx.settings.targetPolicy.check(input.target) : null;
  const now = ctx.clock();
  const numberType = input.numberType ?? ctx.settings.defaultNumberType;

  const expiresAt = new Date(now.getTime() + ctx.settings.sessionTtl * 1000);
  const provision = (em: DomainContext['em'], authenticator: ChosenAuthenticator | null) => {
    // A totp session opened by id is for its authenticator's target (checked again: the policy
    // may have changed since it was stored).
    const sessionTarget =
      target ?? (authenticator ? ctx.settings.targetPolicy.check(authenticator.target_host) : null);
    const channel = input.channel;
    const id = newId('ses');
    return executePrepared<OpenedRow>(em, OPEN_STATEMENT, [
      // lim, go
      ...provisionLimitParams(principal, now, true),
      ctx.settings.freeTierMonthlySessions,
      // n
      id,
      now,
      channel === 'sms_otp',
      numberType,
      now,
      // s
      id,
      now,
      now,
      principal.accountId,
      principal.credentialId,
      principal.agentId,
      channel,
      sessionTarget?.host ?? null,
      sessionTarget?.domain ?? null,
      channel === 'sms_otp' ? numberType : null,
      channel === 'email_otp' || channel === 'magic_link'
        ? newInboxAddress(ctx.settings.inboxDomain)
        : null,
      expiresAt,
      authenticator?.id ?? null,
      input.requireAuthenticatedSender ?? false,
      channel === 'sms_otp',
      // u
      newId('use'),
      now,
      now,
      now,
      // wh
      target?.host ?? null,
      expiresAt.toISOString(),
      now,
    ]);
  };

  let opened: OpenedRow;
  if (input.channel === 'totp') {
    // The authenticator is chosen after the credential's lock, as every provision's rows are.
    [opened] = (await ctx.em.transactional(async (tx) => {
      const counts = await provisionCounts(tx, principal, now, { countActive: true });
      const refusal = refusalOf(counts, now, ctx.settings.freeTierMonthlySessions);
      if (refusal) throw refusal;
      const authenticator = await chooseAuthenticator(tx, principal.accountId, {
        authenticatorId: input.authenticatorId,
        host: target?.host,
      });
      return provision(tx, authenticator);
    })) as [OpenedRow];
  } else {
    // One statement, one round trip: locks, limits, number, session, usage and outbox.
    [opened] = (await provision(ctx.em, null)) as [OpenedRow];
  }
  if (!opened.id) {
    const refusal = refusalOf(opened, now, ctx.settings.freeTierMonthlySessions);
    if (refusal) throw refusal;
    if (input.channel === 'sms_otp') throw await noNumber(ctx.em, numberType, now);
    throw new Error('open: the session was not inserted');
  }
  const row: SessionRow = opened;
  if (opened.webhooks > 0) ctx.webhooks.wake();

  const session = toSessionView(row, now);
  ctx.metrics.sessionOpened(session.channel);
  // One structured line per state change; ids and channel only, never a number's messages.
  ctx.log.info(
    {
      sessionId: session.id,
      accountId: principal.accountId,
      channel: session.channel,
      state: 'active',
    },
    'session opened',
  );
  ctx.background.run(
    () =>
      ctx.events.publish('account', principal.accountId, {
        type: 'session.opened',
        sessionId: session.id,
        channel: session.channel,
        at: now.toISOString(),
      }),
    (error) => ctx.log.warn({ err: error, sessionId: session.id }, 'session event not published'),
  );
  return session;
}

interface ChosenAuthenticator {
  id: string;
  target_host: string;
}

/** The open statement's one row: the limit counts, the outbox rows written, and the session. */
type OpenedRow = ProvisionCounts & { webhooks: number } & SessionRow;

/**
 * lim: the locks and counts; go: whether the limits allow it; n: the number (sms_otp only);
 * s: the session (when allowed and, for sms_otp, numbered); u: its usage event; wh: its
 * `session.opened` deliveries (jsonb_strip_nulls: absent fields are left out, not null).
 * Data-modifying CTEs run to completion whether or not the final select reads them.
 */
const OPEN_STATEMENT = prepared(
  'session_open',
  `
  with lim as materialized (select ${PROVISION_COUNT_COLUMNS} from ${PROVISION_LIMITS_SQL}),
  go as (select (${PROVISION_ALLOWED_SQL}) as ok from lim),
  n as (${ASSIGN_NUMBER_SQL.replace('where e164 =', 'where ?::boolean and (select ok from go) and e164 =')}),
  s as (
    insert into challenge_session (id, created_at, updated_at, account_id, credential_id,
      agent_id, channel, state, target, target_domain, number, number_type, inbox_address,
      expires_at, reroute_count, authenticator_id, require_authenticated_sender)
    select ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, (select e164 from n), ?, ?, ?, 0, ?, ?
    from go
    where go.ok and (not ?::boolean or exists (select 1 from n))
    returning ${SESSION_COLUMNS}),
  u as (
    insert into usage_event (id, created_at, updated_at, account_id, credential_id,
      agent_id, session_id, kind, channel, status, occurred_at)
    select ?, ?, ?, s.account_id, s.credential_id, s.agent_id, s.id, 'session_opened',
      s.channel, 'pending', ?
    from s),
  ${enqueueCte(
    'wh',
    `select s.account_id, 'session.opened'::text as event_type,
       jsonb_strip_nulls(jsonb_build_object('session_id', s.id, 'channel', s.channel,
         'agent_id', s.agent_id, 'number', s.number, 'inbox_address', s.inbox_address,
         'target', ?::text, 'expires_at', ?::text)) as data,
       null::text as verdict_id, ?::timestamptz as occurred_at
     from s`,
  )}
  select lim.*, (select count(*)::int from wh) as webhooks, s.* from lim left join s on true`,
);

export async function noNumber(
  tx: DomainContext['em'],
  type: 'synthetic' | 'programmable',
  now: Date,
) {
  const at = await nextNumberAt(tx, type, now);
  const retryAfter = at ? Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000)) : 60;
  return new AppError('no_number_available', `No ${type} number is free right now`, {
    retryAfter,
    extra: { number_type: type },
  });
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * An unguessable inbox address: 120 random bits as 24 lower-case base32 characters (mail systems
 * may fold case), under the inbound domain. The unique index on the column means it is never
 * handed out twice; a collision would fail the open rather than share an inbox.
 */
export function newInboxAddress(domain: string): string {
  const bytes = pooledRandomBytes(15);
  let bits = 0;
  let value = 0;
  let local = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      local += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return `${local}@${domain}`;
}
