/**
 * The number pool in the database: sync from configuration, atomic assignment, release into
 * quarantine.
 *
 * Invariants:
 * - assignment is one UPDATE whose row is chosen `FOR UPDATE SKIP LOCKED`: two transactions (on
 *   any instances) never take the same number and never wait for each other's choice; it runs
 *   inside the caller's transaction, so a later refusal rolls it back and nothing is consumed;
 * - `held_by` is unique: a session holds at most one number; a number has at most one holder;
 * - a released programmable number gets `available_at = released_at + quarantine` and is not
 *   assignable before then, because a carrier may still deliver a late message for its previous
 *   holder. A synthetic number rests not at all (issue 16): a message reaches one only through
 *   `/v1/synthetic/sms` and only while an active session of the sender's own account holds it, so
 *   no late message can cross to another tenant (`RELEASED_AVAILABLE_AT`). The least recently
 *   available number is assigned first, spreading wear (a released synthetic number goes to the
 *   back of the line). A reroute's released number rests whatever its type (`releaseNumber`), so
 *   the reroute cannot be handed the same number back.
 * All functions take the transaction's EntityManager; none opens a connection of its own
 * (PGlite has one connection: a second one inside a transaction would deadlock).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { NumberType } from '../../entities/challenge-session.ts';

export interface PoolConfig {
  synthetic: readonly string[];
  programmable: readonly string[];
}

/**
 * Makes the table match the configuration: configured numbers exist and are enabled with their
 * type; numbers no longer configured are disabled (kept for history, never assigned again, their
 * current holder undisturbed). Idempotent; every instance runs it at start.
 */
export async function syncNumberPool(em: EntityManager, pool: PoolConfig, now: Date) {
  const rows = [
    ...pool.synthetic.map((e164) => ({ e164, type: 'synthetic' })),
    // A number listed as both is programmable: a real carrier reaches it.
    ...pool.programmable.map((e164) => ({ e164, type: 'programmable' })),
  ];
  await em.transactional(async (tx) => {
    await tx.execute(
      `insert into phone_number (e164, type, enabled, available_at, created_at)
       select r.e164, r.type, true, ?, ? from jsonb_to_recordset(?::jsonb) as r(e164 text, type text)
       on conflict (e164) do update set type = excluded.type, enabled = true
       where phone_number.type <> excluded.type or not phone_number.enabled`,
      [now, now, JSON.stringify(dedupeLastWins(rows))],
    );
    await tx.execute(
      `update phone_number set enabled = false
       where enabled and e164 not in (select value from jsonb_array_elements_text(?::jsonb))`,
      [JSON.stringify(rows.map((r) => r.e164))],
    );
  });
}

function dedupeLastWins<T extends { e164: string }>(rows: T[]): T[] {
  return [...new Map(rows.map((row) => [row.e164, row])).values()];
}

/**
 * The assignment, for a statement of its own or a CTE (open.ts): parameters session id, now,
 * type, now; returns `e164` (no row when none is free).
 */
export const ASSIGN_NUMBER_SQL = `update phone_number set held_by = ?, last_assigned_at = ?
     where e164 = (
       select e164 from phone_number
       where type = ? and enabled and held_by is null and available_at <= ?
       order by available_at, e164
       limit 1
       for update skip locked)
     returning e164`;

/** Takes a free number of `type` for `sessionId`; null when none is free. */
export async function assignNumber(
  tx: EntityManager,
  sessionId: string,
  type: NumberType,
  now: Date,
): Promise<string | null> {
  const [row] = await tx.execute<{ e164: string }[]>(ASSIGN_NUMBER_SQL, [
    sessionId,
    now,
    type,
    now,
  ]);
  return row?.e164 ?? null;
}

/**
 * `available_at` for a number being released (in an UPDATE of phone_number): parameters the
 * release time, then the end of the quarantine; a synthetic number is available at once.
 */
export const RELEASED_AVAILABLE_AT =
  "case when type = 'synthetic' then ?::timestamptz else ?::timestamptz end";

/** The parameters of `RELEASED_AVAILABLE_AT`. */
export const releasedAvailableAtParams = (releasedAt: Date, quarantineSeconds: number) => [
  releasedAt,
  new Date(releasedAt.getTime() + quarantineSeconds * 1000),
];

/**
 * Frees whatever number `sessionId` holds for a reroute; it rests in quarantine from `releasedAt`
 * whatever its type, so the reroute that releases it cannot be handed the same number back.
 */
export async function releaseNumber(
  tx: EntityManager,
  sessionId: string,
  releasedAt: Date,
  quarantineSeconds: number,
) {
  await tx.execute('update phone_number set held_by = null, available_at = ? where held_by = ?', [
    new Date(releasedAt.getTime() + quarantineSeconds * 1000),
    sessionId,
  ]);
}

/**
 * When a number of `type` is next expected to be free: the end of the soonest quarantine, or the
 * soonest expiry among the sessions holding one. Null when the pool has no such number at all.
 */
export async function nextNumberAt(
  tx: EntityManager,
  type: NumberType,
  now: Date,
): Promise<Date | null> {
  const [row] = await tx.execute<{ at: string | null }[]>(
    `select least(
       (select min(available_at) from phone_number
        where type = ? and enabled and held_by is null and available_at > ?),
       (select min(s.expires_at) from phone_number n join challenge_session s on s.id = n.held_by
        where n.type = ? and n.enabled)) as at`,
    [type, now, type],
  );
  return row?.at ? new Date(row.at) : null;
}
