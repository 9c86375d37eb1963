/**
 * Changing an account's plan, with the timing that keeps every month's bill honest:
 * - Free → Per session (the person, on the console): at once, billed from that instant on
 *   (`billing_since`), so sessions that turned billable while on Free are never charged;
 * - Per session → Free: at the start of the next UTC month (`scheduled_tier`), so what this month
 *   already owes cannot be erased by a downgrade on its last day; choosing Per session again
 *   before then cancels it;
 * - Enterprise: only the operator sets it or takes it away (`npm run admin -- set-plan`), at once.
 * The person's change needs a verified email (`requireVerifiedAccount`).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Account, type BillingTier, billingTiers } from '../../entities/account.ts';
import type { RowOf } from '../../entities/row.ts';
import type { User } from '../../entities/user.ts';
import { AppError } from '../../errors/index.ts';
import { requireVerifiedAccount } from '../accounts/verification.ts';
import { monthOf } from '../sessions/limits.ts';

/** The plans a person may choose on the console. */
export const selfServePlans = ['free', 'per_session'] as const;
export type SelfServePlan = (typeof selfServePlans)[number];

export interface PlanState {
  tier: BillingTier;
  billingSince: Date | null;
  scheduled: { tier: BillingTier; at: Date } | null;
}

export async function planState(em: EntityManager, accountId: string): Promise<PlanState> {
  const [row] = await em.execute<
    Pick<RowOf<Account>, 'tier' | 'billing_since' | 'scheduled_tier' | 'scheduled_tier_at'>[]
  >('select tier, billing_since, scheduled_tier, scheduled_tier_at from account where id = ?', [
    accountId,
  ]);
  if (!row) throw new AppError('not_found', 'No such account');
  return {
    tier: row.tier,
    billingSince: row.billing_since ? new Date(row.billing_since) : null,
    scheduled:
      row.scheduled_tier && row.scheduled_tier_at
        ? { tier: row.scheduled_tier, at: new Date(row.scheduled_tier_at) }
        : null,
  };
}

/** What a person's `Change plan` did: `now`, `scheduled` (for the next month) or `unchanged`. */
export type PlanChange =
  | { kind: 'now'; tier: BillingTier }
  | { kind: 'scheduled'; tier: BillingTier; at: Date }
  | { kind: 'unchanged'; tier: BillingTier };

export async function changePlan(
  em: EntityManager,
  user: User,
  requested: unknown,
  now: Date,
): Promise<PlanChange> {
  if (!(selfServePlans as readonly unknown[]).includes(requested)) {
    throw new AppError('invalid_request', 'Choose the plan Free or Per session', {
      extra: { field: 'plan' },
    });
  }
  const plan = requested as SelfServePlan;
  await requireVerifiedAccount(em, user);
  const accountId = user.account.id;
  return em.transactional(async (tx) => {
    // One change at a time per account (two tabs, two people): the row lock orders them.
    const [row] = await tx.execute<Pick<RowOf<Account>, 'tier'>[]>(
      'select tier from account where id = ? for update',
      [accountId],
    );
    if (!row) throw new AppError('not_found', 'No such account');
    if (row.tier === 'enterprise') {
      throw new AppError(
        'plan_not_changeable',
        'Your plan is Enterprise, which the operator manages; ask them to change it.',
      );
    }
    if (plan === row.tier) {
      // Staying (or going back) cancels a change that was waiting for next month.
      await tx.execute(
        'update account set scheduled_tier = null, scheduled_tier_at = null, updated_at = ? where id = ?',
        [now, accountId],
      );
      return { kind: 'unchanged', tier: row.tier };
    }
    if (plan === 'per_session') {
      await tx.execute(
        `update account set tier = 'per_session', billing_since = ?, scheduled_tier = null,
           scheduled_tier_at = null, updated_at = ? where id = ?`,
        [now, now, accountId],
      );
      return { kind: 'now', tier: 'per_session' };
    }
    const at = monthOf(now).end;
    await tx.execute(
      "update account set scheduled_tier = 'free', scheduled_tier_at = ?, updated_at = ? where id = ?",
      [at, now, accountId],
    );
    return { kind: 'scheduled', tier: 'free', at };
  });
}

/** The operator's change (admin CLI): any plan, at once; a waiting change is dropped. */
export async function setPlanByOperator(
  em: EntityManager,
  accountId: string,
  tier: string,
  now: Date,
): Promise<void> {
  if (!(billingTiers as readonly string[]).includes(tier)) {
    throw new AppError('invalid_request', `plan must be one of ${billingTiers.join(', ')}`);
  }
  await em.execute(
    `update account set tier = ?, billing_since = ?, scheduled_tier = null, scheduled_tier_at = null,
       updated_at = ? where id = ?`,
    [tier, now, now, accountId],
  );
}

/** Applies changes whose time has come (the sweeper, every few seconds, on any instance). */
export async function applyScheduledPlans(em: EntityManager, now: Date): Promise<number> {
  const rows = await em.execute<Pick<RowOf<Account>, 'id'>[]>(
    `update account set tier = scheduled_tier, billing_since = scheduled_tier_at,
       scheduled_tier = null, scheduled_tier_at = null, updated_at = ?
     where scheduled_tier_at is not null and scheduled_tier_at <= ?
     returning id`,
    [now, now],
  );
  return rows.length;
}
