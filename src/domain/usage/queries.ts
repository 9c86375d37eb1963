/**
 * Usage queries for an account: the event list (GET /v1/usage) and a period summary with the
 * amount due in integer cents (GET /v1/usage/summary).
 *
 * Pricing, per the account's tier:
 * - free: a monthly allowance of sessions (FREE_TIER_MONTHLY_SESSIONS, opens and reroutes, billed
 *   or not); nothing is due; provisions beyond it are refused (`allowance_exhausted`);
 * - per_session: 99 cents per billable session;
 * - enterprise: the account's own unit price and included sessions (`account_pricing`, see
 *   pricing.ts); until an agreement is recorded, the per-session list price applies.
 * A session is billable once it has yielded a code or link; `pending` ones may still become so.
 * Periods are UTC calendar months.
 */
import { z } from 'zod';
import type { Principal } from '../../auth/principal.ts';
import type { Account, BillingTier } from '../../entities/account.ts';
import type { AccountPricing } from '../../entities/account-pricing.ts';
import type { SessionChannel } from '../../entities/challenge-session.ts';
import type { RowOf } from '../../entities/row.ts';
import type { UsageEvent, UsageKind, UsageStatus } from '../../entities/usage-event.ts';
import { AppError, validate } from '../../errors/index.ts';
import type { DomainContext } from '../context.ts';
import { cursor, pageLimit } from '../limits.ts';
import { monthOf } from '../sessions/limits.ts';

export const PER_SESSION_PRICE_CENTS = 99;

export interface UsageEventView {
  id: string;
  kind: UsageKind;
  status: UsageStatus;
  sessionId: string;
  channel: SessionChannel;
  credentialId: string;
  agentId: string;
  occurredAt: Date;
  settledAt: Date | null;
}

const period = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'use YYYY-MM')
  .transform((value) => new Date(`${value}-01T00:00:00.000Z`));

export const listUsageInput = z.strictObject({
  after: cursor(),
  limit: pageLimit(50),
  /** A UTC month, YYYY-MM; all time when absent. */
  period: period.optional(),
});
export type ListUsageInput = z.input<typeof listUsageInput>;

type EventRow = Pick<
  RowOf<UsageEvent>,
  | 'id'
  | 'kind'
  | 'status'
  | 'session_id'
  | 'channel'
  | 'credential_id'
  | 'agent_id'
  | 'occurred_at'
  | 'settled_at'
>;

export async function listUsage(
  ctx: DomainContext,
  principal: Principal,
  rawInput: ListUsageInput = {},
): Promise<{ events: UsageEventView[]; hasMore: boolean }> {
  const input = validate(listUsageInput, rawInput);
  const range = input.period ? monthOf(input.period) : null;
  type Cursor = Pick<RowOf<UsageEvent>, 'occurred_at' | 'id'>;
  let cursor: Cursor | undefined;
  if (input.after) {
    [cursor] = await ctx.em.execute<Cursor[]>(
      'select occurred_at, id from usage_event where id = ? and account_id = ?',
      [input.after, principal.accountId],
    );
    if (!cursor) {
      throw new AppError('invalid_request', 'after: no such usage event', {
        extra: { field: 'after' },
      });
    }
  }
  const rows = await ctx.em.execute<EventRow[]>(
    `select id, kind, status, session_id, channel, credential_id, agent_id, occurred_at, settled_at
     from usage_event
     where account_id = ?
       ${range ? 'and occurred_at >= ? and occurred_at < ?' : ''}
       ${cursor ? 'and (occurred_at, id) > (?, ?)' : ''}
     order by occurred_at, id
     limit ?`,
    [
      principal.accountId,
      ...(range ? [range.start, range.end] : []),
      ...(cursor ? [cursor.occurred_at, cursor.id] : []),
      input.limit + 1,
    ],
  );
  return {
    events: rows.slice(0, input.limit).map((row) => ({
      id: row.id,
      kind: row.kind,
      status: row.status,
      sessionId: row.session_id,
      channel: row.channel,
      credentialId: row.credential_id,
      agentId: row.agent_id,
      occurredAt: new Date(row.occurred_at),
      settledAt: row.settled_at ? new Date(row.settled_at) : null,
    })),
    hasMore: rows.length > input.limit,
  };
}

export interface UsageSummary {
  accountId: string;
  tier: BillingTier;
  periodStart: Date;
  periodEnd: Date;
  /** Opens and reroutes in the period, billed or not: what the live allowance counts. */
  sessionsUsed: number;
  billableSessions: number;
  pendingSessions: number;
  unbilledSessions: number;
  /** Sessions the tier includes at no charge (free: the allowance; enterprise: by agreement). */
  includedSessions: number;
  /** Free tier only: what is left of this period's allowance. */
  allowanceRemaining: number | null;
  unitPriceCents: number;
  amountDueCents: number;
  currency: 'USD';
  byCredential: { credentialId: string; sessionsUsed: number; billableSessions: number }[];
}

export const usageSummaryInput = z.strictObject({ period: period.optional() });
export type UsageSummaryInput = z.input<typeof usageSummaryInput>;

export async function usageSummary(
  ctx: DomainContext,
  principal: Principal,
  rawInput: UsageSummaryInput = {},
): Promise<UsageSummary> {
  const input = validate(usageSummaryInput, rawInput);
  const { start, end } = monthOf(input.period ?? ctx.clock());
  const { tier, billingSince } = await accountTier(ctx.em, principal.accountId);
  // Per session bills from the upgrade on: what turned billable while on Free is never charged.
  const chargedFrom =
    tier === 'per_session' && billingSince && billingSince > start ? billingSince : start;
  const rows = await ctx.em.execute<
    {
      credential_id: string;
      used: number;
      billable: number;
      charged: number;
      pending: number;
      unbilled: number;
    }[]
  >(
    `select credential_id, count(*)::int as used,
       (count(*) filter (where status = 'billable'))::int as billable,
       (count(*) filter (where status = 'billable' and occurred_at >= ?))::int as charged,
       (count(*) filter (where status = 'pending'))::int as pending,
       (count(*) filter (where status = 'not_billed'))::int as unbilled
     from usage_event
     where account_id = ? and occurred_at >= ? and occurred_at < ?
     group by credential_id
     order by credential_id collate "C"`,
    [chargedFrom, principal.accountId, start, end],
  );
  const sum = (pick: (row: (typeof rows)[number]) => number) =>
    rows.reduce((total, row) => total + pick(row), 0);
  const used = sum((r) => r.used);
  const billable = sum((r) => r.billable);
  const charged = sum((r) => r.charged);

  let included = 0;
  let unitPrice = PER_SESSION_PRICE_CENTS;
  if (tier === 'free') {
    included = ctx.settings.freeTierMonthlySessions;
    unitPrice = 0;
  } else if (tier === 'enterprise') {
    const [agreement] = await ctx.em.execute<
      Pick<RowOf<AccountPricing>, 'unit_price_cents' | 'included_sessions'>[]
    >('select unit_price_cents, included_sessions from account_pricing where account_id = ?', [
      principal.accountId,
    ]);
    if (agreement) {
      unitPrice = agreement.unit_price_cents;
      included = agreement.included_sessions;
    }
  }
  return {
    accountId: principal.accountId,
    tier,
    periodStart: start,
    periodEnd: end,
    sessionsUsed: used,
    billableSessions: billable,
    pendingSessions: sum((r) => r.pending),
    unbilledSessions: sum((r) => r.unbilled),
    includedSessions: included,
    allowanceRemaining: tier === 'free' ? Math.max(0, included - used) : null,
    unitPriceCents: unitPrice,
    amountDueCents: Math.max(0, charged - included) * unitPrice,
    currency: 'USD',
    byCredential: rows.map((r) => ({
      credentialId: r.credential_id,
      sessionsUsed: r.used,
      billableSessions: r.billable,
    })),
  };
}

async function accountTier(
  em: DomainContext['em'],
  accountId: string,
): Promise<{ tier: BillingTier; billingSince: Date | null }> {
  const [row] = await em.execute<Pick<RowOf<Account>, 'tier' | 'billing_since'>[]>(
    'select tier, billing_since from account where id = ?',
    [accountId],
  );
  if (!row) throw new AppError('not_found', 'No such account');
  return { tier: row.tier, billingSince: row.billing_since ? new Date(row.billing_since) : null };
}
