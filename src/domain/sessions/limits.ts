/**
 * Provisioning limits, exact under concurrency and across instances because they are decided in
 * the database, inside the provisioning transaction, after taking a transaction-scoped advisory
 * lock on the credential (and, for the free tier's allowance, on the account):
 * - 60 provisions (opens and reroutes) in any 60 seconds per credential — a sliding window over
 *   the usage events themselves, so a refused or failed provision, which writes none, counts for
 *   nothing;
 * - 50 concurrently active sessions per credential;
 * - a free account's monthly allowance of sessions (opens and reroutes, billed or not).
 * The lock serializes only provisions of one credential (an account-wide lock is taken only for a
 * free account, whose allowance is account-wide); the locks are released at commit or rollback.
 * Lock order is always credential, then account, then rows, so two provisions cannot deadlock.
 *
 * The locks and counts are one call of the SQL function `latchkey_provision_limits` (migration
 * 20261125111000): each statement of a volatile PL/pgSQL function takes a fresh snapshot, so its
 * counts see every provision committed before its lock was granted. Being one expression, it can
 * open a statement that also inserts (`PROVISION_LIMITS_SQL` in open.ts): an open is then one
 * round trip and holds the credential's lock only while that statement runs (issue 16; before, the
 * lock was held across six round trips: begin, lock, count, insert, outbox, commit).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../auth/principal.ts';
import type { PreparedValue } from '../../db/prepared.ts';
import type { BillingTier } from '../../entities/account.ts';
import { AppError } from '../../errors/index.ts';

export const PROVISIONS_PER_MINUTE = 60;
export const MAX_ACTIVE_SESSIONS = 50;

/** What `latchkey_provision_limits` answers (raw SQL: timestamps may be strings). */
export interface ProvisionCounts {
  recent: number;
  oldest: string | Date | null;
  active: number;
  soonest: string | Date | null;
  tier: BillingTier | null;
  /** Free accounts only: provisions this UTC month. */
  month_used: number | null;
}

/** The columns of `ProvisionCounts`, for a statement that selects them beside others. */
export const PROVISION_COUNT_COLUMNS = 'recent, oldest, active, soonest, tier, month_used';

/**
 * `select * from` this, with `provisionLimitParams(...)`, takes the locks and counts. Its seven
 * parameters: credential, account, window start, now, whether to count active sessions, and the
 * UTC month's bounds.
 */
export const PROVISION_LIMITS_SQL =
  'latchkey_provision_limits(?, ?, ?::timestamptz, ?::timestamptz, ?::boolean, ?::timestamptz, ?::timestamptz)';

export function provisionLimitParams(
  principal: Pick<Principal, 'credentialId' | 'accountId'>,
  now: Date,
  countActive: boolean,
): PreparedValue[] {
  const { start, end } = monthOf(now);
  return [
    principal.credentialId,
    principal.accountId,
    new Date(now.getTime() - 60_000),
    now,
    countActive,
    start,
    end,
  ];
}

/**
 * The SQL condition (over the columns of `ProvisionCounts`) under which a provision may go ahead;
 * `refusalOf` says why not, in the same order. Its one parameter is the free allowance.
 */
export const PROVISION_ALLOWED_SQL = `tier is not null and recent < ${PROVISIONS_PER_MINUTE}
  and active < ${MAX_ACTIVE_SESSIONS} and (tier <> 'free' or month_used < ?::int)`;

const secondsUntil = (at: Date, now: Date) =>
  Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));

/**
 * Why a provision with these counts is refused, or null when it may go ahead: the 61st provision
 * within any 60 seconds, a 51st active session (counted only for opens), a free account's
 * provision beyond its monthly allowance.
 */
export function refusalOf(counts: ProvisionCounts, now: Date, allowance: number): AppError | null {
  if (!counts.tier)
    return new AppError('forbidden', 'The account of this credential no longer exists');
  if (counts.recent >= PROVISIONS_PER_MINUTE && counts.oldest) {
    const freesAt = new Date(new Date(counts.oldest).getTime() + 60_000);
    return new AppError(
      'rate_limited',
      `At most ${PROVISIONS_PER_MINUTE} sessions may be provisioned per minute per credential`,
      { retryAfter: secondsUntil(freesAt, now) },
    );
  }
  if (counts.active >= MAX_ACTIVE_SESSIONS && counts.soonest) {
    return new AppError(
      'session_limit_reached',
      `This credential already holds ${MAX_ACTIVE_SESSIONS} active sessions; close one first`,
      { retryAfter: secondsUntil(new Date(counts.soonest), now) },
    );
  }
  if (counts.tier === 'free' && (counts.month_used ?? 0) >= allowance) {
    const { end } = monthOf(now);
    return new AppError(
      'allowance_exhausted',
      `The free tier includes ${allowance} sessions a month, and this month's are used`,
      { retryAfter: secondsUntil(end, now), extra: { allowance } },
    );
  }
  return null;
}

/**
 * Takes the locks and counts, inside the caller's transaction (the locks are held until it ends).
 * `countActive` is false for a reroute, which adds no session.
 */
export async function provisionCounts(
  tx: EntityManager,
  principal: Pick<Principal, 'credentialId' | 'accountId'>,
  now: Date,
  options: { countActive: boolean },
): Promise<ProvisionCounts> {
  const [counts] = await tx.execute<ProvisionCounts[]>(
    `select ${PROVISION_COUNT_COLUMNS} from ${PROVISION_LIMITS_SQL}`,
    provisionLimitParams(principal, now, options.countActive),
  );
  return counts!;
}

/** The UTC calendar month containing `now`: [start, end). */
export function monthOf(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}
