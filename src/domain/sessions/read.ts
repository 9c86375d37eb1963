/**
 * read and list: a session of the caller's account, and the account's unexpired active sessions.
 *
 * Tenancy: every query is confined to the principal's account; another account's session is
 * `not_found`, indistinguishable from one that does not exist.
 * The list is ordered by (created_at, id) and pages with `after` (the last session_id seen) and
 * `hasMore`, as list_numbers does.
 */
import { z } from 'zod';
import type { Principal } from '../../auth/principal.ts';
import { executePrepared, prepared } from '../../db/prepared.ts';
import { AppError, validate } from '../../errors/index.ts';
import type { DomainContext } from '../context.ts';
import { cursor, pageLimit } from '../limits.ts';
import {
  effectiveState,
  SESSION_COLUMNS,
  type SessionRow,
  type SessionView,
  toSessionView,
} from './views.ts';

/** Every wait and read starts here: a named prepared statement (issue 16). */
const LOAD_SESSION = prepared(
  'session_load',
  `select ${SESSION_COLUMNS} from challenge_session where id = ? and account_id = ?`,
  { readOnly: true },
);

/** The session row of the caller's account, or `not_found`. */
export async function loadSessionRow(
  ctx: DomainContext,
  principal: Principal,
  sessionId: string,
): Promise<SessionRow> {
  const [row] = await executePrepared<SessionRow>(ctx.em, LOAD_SESSION, [
    sessionId,
    principal.accountId,
  ]);
  if (!row) throw new AppError('not_found', 'No such session');
  return row;
}

export async function readSession(
  ctx: DomainContext,
  principal: Principal,
  sessionId: string,
): Promise<SessionView> {
  return toSessionView(await loadSessionRow(ctx, principal, sessionId), ctx.clock());
}

/** The error for acting on a session that is no longer active (completed or expired). */
export function sessionEndedError(row: Pick<SessionRow, 'state' | 'expires_at'>, now: Date) {
  return endedError(effectiveState(row, now) === 'completed' ? 'completed' : 'expired');
}

export function endedError(state: 'completed' | 'expired') {
  return state === 'completed'
    ? new AppError('session_closed', 'The session was closed; open a new one')
    : new AppError('session_expired', 'The session has expired; open a new one');
}

export const listSessionsInput = z.strictObject({
  after: cursor(),
  limit: pageLimit(),
});
export type ListSessionsInput = z.input<typeof listSessionsInput>;

export async function listSessions(
  ctx: DomainContext,
  principal: Principal,
  rawInput: ListSessionsInput = {},
): Promise<{ sessions: SessionView[]; hasMore: boolean }> {
  const input = validate(listSessionsInput, rawInput);
  const now = ctx.clock();
  let cursor: { created_at: string; id: string } | undefined;
  if (input.after) {
    [cursor] = await ctx.em.execute<{ created_at: string; id: string }[]>(
      'select created_at, id from challenge_session where id = ? and account_id = ?',
      [input.after, principal.accountId],
    );
    if (!cursor) {
      throw new AppError('invalid_request', 'after: no such session', {
        extra: { field: 'after' },
      });
    }
  }
  const rows = await ctx.em.execute<SessionRow[]>(
    `select ${SESSION_COLUMNS} from challenge_session
     where account_id = ? and state = 'active' and expires_at > ?
       ${cursor ? 'and (created_at, id) > (?, ?)' : ''}
     order by created_at, id
     limit ?`,
    [principal.accountId, now, ...(cursor ? [cursor.created_at, cursor.id] : []), input.limit + 1],
  );
  return {
    sessions: rows.slice(0, input.limit).map((row) => toSessionView(row, now)),
    hasMore: rows.length > input.limit,
  };
}
