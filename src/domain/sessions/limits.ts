/**
 * Provisioning limits, exact under concurrency and across instances because they are decided in
 * the database, inside the provisioning transaction, after taking a transaction-scoped advisory
 * lock on the credential (and, for the free tier's allowance, on the account):
 * - 60 provisions (opens and reroutes) in any 60 seconds per credential — a sliding window over
 *   the usage events themselves, so a refused or failed provision, which writes none, counts for
 *   nothing;
 * - 50 concurrently active sessions per credential;
 * - a free account's monthly allowance of sessions (opens and reroutes, billed or not).
 * The lock serializes only provisions of one credential; the locks are released at commit or
 * rollback. Lock order is always credential, then account, then rows, so two provisions cannot
 * deadlock.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../../auth/principal.ts';
import type { BillingTier } from '../../entities/account.ts';
import { AppError } from '../../errors/index.ts';

export const PROVISIONS_PER_MINUTE = 60;
export const MAX_ACTIVE_SESSIONS = 50;

// Advisory lock classes (the first key of pg_advisory_xact_lock(int, int)), Latchkey's own.
const CREDENTIAL_LOCK = 5101;
const ACCOUNT_LOCK = 5102;

export async function lockCredential(tx: EntityManager, credentialId: string) {
  await tx.execute('select pg_advisory_xact_lock(?, hashtext(?))', [CREDENTIAL_LOCK, credentialId]);
}

export async function lockAccount(tx: EntityManager, accountId: string) {
  await tx.execute('select pg_advisory_xact_lock(?, hashtext(?))', [ACCOUNT_LOCK, accountId]);
}

const secondsUntil = (at: Date, now: Date) =>
  Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));

/**
 * Refuses the 61st provision within any 60 seconds and (for opens) a 51st active session, in one
 * query taken after the credential lock (a statement of its own, so its snapshot sees every
 * provision committed before the lock was granted). Returns the account's billing tier.
 */
export async function enforceCredentialLimits(
  tx: EntityManager,
  principal: Pick<Principal, 'credentialId' | 'accountId'>,
  now: Date,
  options: { countActive: boolean },
): Promise<BillingTier> {
  const windowStart = new Date(now.getTime() - 60_000);
  const [row] = await tx.execute<
    {
      recent: number;
      oldest: string | null;
      active: number;
      soonest: string | null;
      tier: BillingTier | null;
    }[]
  >(
    `select recent.n as recent, recent.oldest, active.n as active, active.soonest,
       (select tier from account where id = ?) as tier
     from (select count(*)::int as n, min(occurred_at) as oldest from usage_event
           where credential_id = ? and occurred_at > ?) as recent,
          (select count(*)::int as n, min(expires_at) as soonest from challenge_session
           where ?::boolean and credential_id = ? and state = 'active' and expires_at > ?) as active`,
    [
      principal.accountId,
      principal.credentialId,
      windowStart,
      options.countActive,
      principal.credentialId,
      now,
    ],
  );
  if (!row?.tier)
    throw new AppError('forbidden', 'The account of this credential no longer exists');
  if (row.recent >= PROVISIONS_PER_MINUTE && row.oldest) {
    const freesAt = new Date(new Date(row.oldest).getTime() + 60_000);
    throw new AppError(
      'rate_limited',
      `At most ${PROVISIONS_PER_MINUTE} sessions may be provisioned per minute per credential`,
      { retryAfter: secondsUntil(freesAt, now) },
    );
  }
  if (row.active >= MAX_ACTIVE_SESSIONS && row.soonest) {
    throw new AppError(
      'session_limit_reached',
      `This credential already holds ${MAX_ACTIVE_SESSIONS} active sessions; close one first`,
      { retryAfter: secondsUntil(new Date(row.soonest), now) },
    );
  }
  return row.tier;
}

/** The UTC calendar month containing `now`: [start, end). */
export function monthOf(now: Date): { start: Date; end: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, end };
}

/** Refuses a free account's provision beyond its monthly allowance; call with the account lock. */
export async function enforceAllowance(
  tx: EntityManager,
  accountId: string,
  allowance: number,
  now: Date,
) {
  const { start, end } = monthOf(now);
  const [row] = await tx.execute<{ n: number }[]>(
    'select count(*)::int as n from usage_event where account_id = ? and occurred_at >= ? and occurred_at < ?',
    [accountId, start, end],
  );
  if ((row?.n ?? 0) >= allowance) {
    throw new AppError(
      'allowance_exhausted',
      `The free tier includes ${allowance} sessions a month, and this month's are used`,
      { retryAfter: secondsUntil(end, now), extra: { allowance } },
    );
  }
}
