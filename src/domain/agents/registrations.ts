/**
 * Agent registrations: creation, the claim grant's polling bookkeeping, the person's claim on the
 * console, and revocation. The spec's table "Registration and tokens" is implemented here; the
 * faces that drive it are the registration route and claim grant (src/auth) and the console.
 *
 * Every operation that reads the clock takes it from its context (`ctx.clock`), so tests move time
 * instead of sleeping through a poll interval or a code's lifetime.
 *
 * Every state change is one conditional UPDATE … WHERE status = … RETURNING (never read-then-
 * write), so with several instances on one database each transition happens exactly once: one
 * claim, one hand-out of tokens per claim token, one lock after the 5th wrong code.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { digestsEqual, randomSecret, sha256Hex } from '../../auth/secrets.ts';
import { generateUserCode, userCodeDigest } from '../../auth/user-codes.ts';
import { AgentRegistration } from '../../entities/agent-registration.ts';
import type { RowOf } from '../../entities/row.ts';
import type { User } from '../../entities/user.ts';
import { AppError } from '../../errors/index.ts';
import type { TimedContext } from '../context.ts';
import { enqueueCte, enqueueWebhookEvent } from '../webhooks/events.ts';
import { deleteRegistrationKeys } from './api-keys.ts';

/** RFC 8628 §5.1: wrong codes allowed before the claim is locked. */
export const maxClaimAttempts = 5;

export interface RegistrationPolicy {
  /** Seconds the user code can be typed (USER_CODE_TTL). */
  userCodeTtl: number;
  /** Seconds between polls (CLAIM_POLL_INTERVAL). */
  pollInterval: number;
  /** Key of the user-code digests. */
  userCodePepper: string;
}

export interface NewRegistration {
  registration: AgentRegistration;
  claimToken: string;
  claimAttemptToken: string;
  userCode: string;
}

export async function createRegistration(
  { em, clock }: TimedContext,
  input: { email: string; scope: string; name?: string | null },
  policy: RegistrationPolicy,
): Promise<NewRegistration> {
  const now = clock();
  const claimToken = randomSecret('clm');
  const claimAttemptToken = randomSecret('cla');
  const userCode = generateUserCode();
  const codeExpiresAt = new Date(now.getTime() + policy.userCodeTtl * 1000);
  const registration = em.create(AgentRegistration, {
    type: 'service_auth',
    status: 'pending',
    account: null,
    claimedBy: null,
    claimEmail: input.email,
    scope: input.scope,
    claimTokenHash: sha256Hex(claimToken),
    claimAttemptTokenHash: sha256Hex(claimAttemptToken),
    userCodeHash: userCodeDigest(policy.userCodePepper, userCode),
    failedAttempts: 0,
    lastPolledAt: null,
    codeExpiresAt,
    // The claim token outlives the code by one more window, so a claim made in the code's last
    // seconds can still be collected by the agent's next poll.
    claimTokenExpiresAt: new Date(codeExpiresAt.getTime() + policy.userCodeTtl * 1000),
    claimedAt: null,
    tokensIssuedAt: null,
    revokedAt: null,
    name: input.name ?? null,
    lastUsedAt: null,
  });
  await em.flush();
  return { registration, claimToken, claimAttemptToken, userCode };
}

export type PollOutcome =
  | { kind: 'unknown' | 'spent' | 'revoked' | 'expired' | 'slow_down' | 'pending' }
  | { kind: 'ready'; registrationId: string; accountId: string; scope: string };

type Row = RowOf<AgentRegistration>;

/** The registration as the poll left it, and the poll time it replaced. */
type PollRow = Pick<
  Row,
  | 'id'
  | 'status'
  | 'account_id'
  | 'scope'
  | 'code_expires_at'
  | 'claim_token_expires_at'
  | 'tokens_issued_at'
> & { previous_poll: Row['last_polled_at'] };

/**
 * Records a poll of the claim grant and says what to answer. The poll time is stamped in the same
 * statement that reads the previous one (row-locked), so two racing polls cannot both pass the
 * interval check.
 */
export async function pollClaim(
  { em, clock }: TimedContext,
  claimToken: string,
  policy: Pick<RegistrationPolicy, 'pollInterval'>,
): Promise<PollOutcome> {
  const now = clock();
  const [row] = await em.execute<PollRow[]>(
    `with previous as (
       select id, last_polled_at from agent_registration where claim_token_hash = ? for update)
     update agent_registration r set last_polled_at = ?
     from previous where r.id = previous.id
     returning r.id, r.status, r.account_id, r.scope, r.code_expires_at, r.claim_token_expires_at,
       r.tokens_issued_at, previous.last_polled_at as previous_poll`,
    [sha256Hex(claimToken), now],
  );
  if (!row) return { kind: 'unknown' };
  if (row.tokens_issued_at) return { kind: 'spent' };
  if (row.status === 'revoked') return { kind: 'revoked' };
  if (row.status === 'expired') return { kind: 'expired' };
  const codeLapsed = new Date(row.code_expires_at).getTime() <= now.getTime();
  const tokenLapsed = new Date(row.claim_token_expires_at).getTime() <= now.getTime();
  if ((row.status === 'pending' && codeLapsed) || tokenLapsed) {
    await em.execute(
      `update agent_registration set status = 'expired', updated_at = ?
       where id = ? and status in ('pending', 'claimed') and tokens_issued_at is null`,
      [now, row.id],
    );
    return { kind: 'expired' };
  }
  if (row.previous_poll && tooSoon(new Date(row.previous_poll), now, policy.pollInterval)) {
    return { kind: 'slow_down' };
  }
  if (row.status === 'pending') return { kind: 'pending' };
  return { kind: 'ready', registrationId: row.id, accountId: row.account_id!, scope: row.scope };
}

/**
 * Polls closer together than the interval are refused, less a little slack (at most 1 s, 20 % of
 * the interval) for network jitter, so a client that sleeps exactly `interval` is never told off.
 */
function tooSoon(previous: Date, now: Date, interval: number) {
  const slackMs = Math.min(1000, interval * 200);
  return now.getTime() - previous.getTime() < interval * 1000 - slackMs;
}

/** Spends the claim token: true for exactly one caller per registration. */
export async function markTokensIssued(
  { em, clock }: TimedContext,
  registrationId: string,
): Promise<boolean> {
  const now = clock();
  const rows = await em.execute<Pick<Row, 'id'>[]>(
    `update agent_registration set tokens_issued_at = ?, updated_at = ?
     where id = ? and status = 'claimed' and tokens_issued_at is null returning id`,
    [now, now, registrationId],
  );
  return rows.length === 1;
}

/** The registration behind a claim link, or null. */
export function findByClaimAttemptToken(em: EntityManager, claimAttemptToken: string) {
  if (!/^cla_[A-Za-z0-9_-]{20,100}$/.test(claimAttemptToken)) return Promise.resolve(null);
  return em.findOne(AgentRegistration, { claimAttemptTokenHash: sha256Hex(claimAttemptToken) });
}

/** Why a registration cannot be claimed at `now` (the caller's clock), or null when it can. */
export function claimRefusal(
  registration: AgentRegistration,
  user: User,
  now: Date,
): AppError | null {
  if (registration.claimEmail !== user.email.toLowerCase()) {
    return new AppError(
      'claim_wrong_user',
      'This agent asked to be connected by a different email address. Sign in with that address to claim it; nothing was claimed.',
    );
  }
  if (registration.status === 'claimed' || registration.status === 'revoked') {
    return new AppError('claim_closed', 'This agent has already been claimed.');
  }
  if (
    registration.status === 'expired' ||
    registration.codeExpiresAt.getTime() <= now.getTime() ||
    registration.failedAttempts >= maxClaimAttempts
  ) {
    return new AppError(
      'claim_expired',
      'This claim has expired. Ask the agent to register again for a new code.',
    );
  }
  return null;
}

/**
 * The person's claim: the signed-in user whose email is the registration's claim_email types the
 * user code. A right code moves the registration to `claimed` in the user's account; a wrong one
 * counts, and the 5th wrong one locks the claim (status `expired`).
 */
export async function claimRegistration(
  { em, clock }: TimedContext,
  input: { claimAttemptToken: string; code: string; user: User },
  policy: Pick<RegistrationPolicy, 'userCodePepper'>,
): Promise<AgentRegistration> {
  const now = clock();
  const registration = await findByClaimAttemptToken(em, input.claimAttemptToken);
  if (!registration) throw new AppError('not_found', 'This claim link is not valid.');
  const refusal = claimRefusal(registration, input.user, now);
  if (refusal) throw refusal;

  const typed = userCodeDigest(policy.userCodePepper, input.code);
  if (!digestsEqual(typed, registration.userCodeHash)) {
    const [row] = await em.execute<Pick<Row, 'failed_attempts'>[]>(
      `update agent_registration set failed_attempts = failed_attempts + 1, updated_at = ?,
         status = case when failed_attempts + 1 >= ? then 'expired' else status end
       where id = ? and status = 'pending' returning failed_attempts`,
      [now, maxClaimAttempts, registration.id],
    );
    const left = maxClaimAttempts - (row?.failed_attempts ?? maxClaimAttempts);
    if (left <= 0) {
      throw new AppError(
        'claim_expired',
        'Too many wrong codes: this claim is locked. Ask the agent to register again for a new code.',
      );
    }
    throw new AppError(
      'invalid_user_code',
      `That code is not right. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`,
    );
  }

  // The claim and its `agent.claimed` webhook deliveries (the outbox) in one statement.
  const claimed = await em.execute<Pick<Row, 'id'>[]>(
    `with c as (
       update agent_registration set status = 'claimed', account_id = ?, claimed_by_id = ?,
         claimed_at = ?, updated_at = ?
       where id = ? and status = 'pending' and failed_attempts < ? and code_expires_at > ?
       returning id, account_id, type),
     ${enqueueCte(
       'wh',
       `select account_id, 'agent.claimed'::text as event_type,
          jsonb_build_object('agent_id', id, 'type', type, 'claimed_at', ?::text) as data,
          null::text as verdict_id, ?::timestamptz as occurred_at
        from c`,
     )}
     select id from c`,
    [
      input.user.account.id,
      input.user.id,
      now,
      now,
      registration.id,
      maxClaimAttempts,
      now,
      now.toISOString(),
      now,
    ],
  );
  if (claimed.length === 0) {
    // Lost a race (another tab claimed it, or the window or the attempts ran out meanwhile).
    await em.refresh(registration);
    throw claimRefusal(registration, input.user, now) ?? new AppError('claim_closed');
  }
  await em.refresh(registration);
  return registration;
}

/**
 * Revokes a registration (status `revoked`) and everything derived from it, in one transaction:
 * its access tokens and every API key of its lineage (keys the agent minted, keys those keys
 * minted, …), so a compromised agent leaves nothing behind that still works. From the commit on,
 * none of its tokens or keys is found any more even where a row survived a race
 * (src/auth/adapter.ts and api-keys.ts join the registration). Returns the revoked credentials
 * (registration and key ids) for the caller to announce after commit (src/auth/revocation.ts),
 * or null when the registration was not live (unknown, expired or already revoked: nothing
 * changes, nothing to announce).
 */
export async function revokeRegistration(
  { em, clock }: TimedContext,
  registrationId: string,
  /** Only if the registration belongs to this account (the console's Disconnect). */
  accountId?: string,
): Promise<string[] | null> {
  const now = clock();
  return em.transactional(async (tx) => {
    const rows = await tx.execute<Pick<Row, 'id' | 'account_id'>[]>(
      `update agent_registration set status = 'revoked', revoked_at = ?, updated_at = ?
       where id = ? and status in ('pending', 'claimed') ${accountId ? 'and account_id = ?' : ''}
       returning id, account_id`,
      accountId ? [now, now, registrationId, accountId] : [now, now, registrationId],
    );
    if (rows.length !== 1) return null;
    // The account hears of it through its webhooks (outbox, same transaction).
    const owner = rows[0]!.account_id;
    if (owner) {
      await enqueueWebhookEvent(tx, {
        accountId: owner,
        type: 'agent.revoked',
        at: now,
        data: { agent_id: registrationId, revoked_at: now.toISOString() },
      });
    }
    const keys = await deleteRegistrationKeys(tx, registrationId);
    await tx.execute("delete from oidc_payload where model = 'AccessToken' and account_id = ?", [
      registrationId,
    ]);
    return [registrationId, ...keys];
  });
}

/** `revokeRegistration` for callers that announce nothing (tests, scripts): whether it changed. */
export async function markRevoked(ctx: TimedContext, registrationId: string): Promise<boolean> {
  return (await revokeRegistration(ctx, registrationId)) !== null;
}

/** Deletes registrations nobody can use any more (never claimed, claim token long gone). */
export async function sweepRegistrations({ em, clock }: TimedContext) {
  const now = clock();
  await em.execute(
    `delete from agent_registration
     where account_id is null and claim_token_expires_at <= ?`,
    [new Date(now.getTime() - 24 * 3600 * 1000)],
  );
}
