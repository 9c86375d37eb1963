/**
 * Authenticators of an account: create, list, delete, and the choice of one for a `totp` session.
 *
 * Tenancy: every query is confined to the principal's account; another account's authenticator is
 * `not_found` (or, when opening a session, `no_authenticator`), as if it did not exist.
 * The seed is sealed before it reaches a statement and opened only to compute a code
 * (totp-codes.ts); the view returned by every operation has no field that could carry it.
 */
import { z } from 'zod';
import type { Principal } from '../../auth/principal.ts';
import type { Authenticator, TotpAlgorithm } from '../../entities/authenticator.ts';
import { newId } from '../../entities/base.ts';
import type { RowOf } from '../../entities/row.ts';
import { AppError, validate } from '../../errors/index.ts';
import type { DomainContext } from '../context.ts';
import { cursor, pageLimit } from '../limits.ts';
import { type CreateAuthenticatorInput, readEnrolment } from './enrolment.ts';

export interface AuthenticatorView {
  id: string;
  target: string;
  label: string | null;
  issuer: string | null;
  digits: number;
  period: number;
  algorithm: TotpAlgorithm;
  createdAt: Date;
}

/** The columns a view is made of: never `secret`. */
const viewColumns = [
  'id',
  'target',
  'label',
  'issuer',
  'digits',
  'period',
  'algorithm',
  'created_at',
] as const satisfies readonly (keyof RowOf<Authenticator>)[];
const VIEW_COLUMNS = viewColumns.join(', ');

type ViewRow = Pick<RowOf<Authenticator>, (typeof viewColumns)[number]>;

const toView = (row: ViewRow): AuthenticatorView => ({
  id: row.id,
  target: row.target,
  label: row.label,
  issuer: row.issuer,
  digits: row.digits,
  period: row.period,
  algorithm: row.algorithm,
  createdAt: new Date(row.created_at),
});

export async function createAuthenticator(
  ctx: DomainContext,
  principal: Pick<Principal, 'accountId'>,
  input: CreateAuthenticatorInput,
): Promise<AuthenticatorView> {
  const enrolment = readEnrolment(input);
  // The same policy as sessions: an enrolment for a refused target could never be used.
  const target = ctx.settings.targetPolicy.check(input.target);
  const id = newId('aut');
  const now = ctx.clock();
  const [row] = await ctx.em.execute<ViewRow[]>(
    `insert into authenticator (id, created_at, updated_at, account_id, target, target_host,
       label, issuer, digits, period, algorithm, secret)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     returning ${VIEW_COLUMNS}`,
    [
      id,
      now,
      now,
      principal.accountId,
      input.target.trim(),
      target.host,
      enrolment.label,
      enrolment.issuer,
      enrolment.digits,
      enrolment.period,
      enrolment.algorithm,
      ctx.sealer.sealText(enrolment.secret, id),
    ],
  );
  return toView(row!);
}

export const listAuthenticatorsInput = z.strictObject({
  after: cursor(),
  limit: pageLimit(),
});
export type ListAuthenticatorsInput = z.input<typeof listAuthenticatorsInput>;

/** Oldest first, paged by id of the last one seen (`after`). */
export async function listAuthenticators(
  ctx: DomainContext,
  principal: Pick<Principal, 'accountId'>,
  rawInput: ListAuthenticatorsInput = {},
): Promise<{ authenticators: AuthenticatorView[]; hasMore: boolean }> {
  const input = validate(listAuthenticatorsInput, rawInput);
  let cursor: ViewRow | undefined;
  if (input.after) {
    [cursor] = await ctx.em.execute<ViewRow[]>(
      `select ${VIEW_COLUMNS} from authenticator where id = ? and account_id = ?`,
      [input.after, principal.accountId],
    );
    if (!cursor) {
      throw new AppError('invalid_request', 'after: not an authenticator of this account', {
        extra: { field: 'after' },
      });
    }
  }
  const rows = await ctx.em.execute<ViewRow[]>(
    `select ${VIEW_COLUMNS} from authenticator
     where account_id = ? ${cursor ? 'and (created_at, id) > (?, ?)' : ''}
     order by created_at, id limit ?`,
    cursor
      ? [principal.accountId, cursor.created_at, cursor.id, input.limit + 1]
      : [principal.accountId, input.limit + 1],
  );
  return {
    authenticators: rows.slice(0, input.limit).map(toView),
    hasMore: rows.length > input.limit,
  };
}

/**
 * Deletes the account's authenticator: the row and its sealed seed go in one statement (its
 * served steps cascade; sessions opened on it keep their history but hand out no more codes).
 */
export async function deleteAuthenticator(
  ctx: DomainContext,
  principal: Pick<Principal, 'accountId'>,
  id: string,
): Promise<void> {
  const rows = await ctx.em.execute<Pick<RowOf<Authenticator>, 'id'>[]>(
    'delete from authenticator where id = ? and account_id = ? returning id',
    [id, principal.accountId],
  );
  if (rows.length === 0) throw new AppError('not_found', 'No such authenticator');
}

type Chosen = Pick<RowOf<Authenticator>, 'id' | 'target_host'>;

/**
 * The authenticator a `totp` session opens on: the one with `authenticatorId`, else the only one
 * whose target has `host`. Runs inside the opening transaction.
 */
export async function chooseAuthenticator(
  tx: DomainContext['em'],
  accountId: string,
  choice: { authenticatorId?: string; host?: string },
): Promise<Chosen> {
  const rows = choice.authenticatorId
    ? await tx.execute<Chosen[]>(
        'select id, target_host from authenticator where id = ? and account_id = ? for share',
        [choice.authenticatorId, accountId],
      )
    : await tx.execute<Chosen[]>(
        'select id, target_host from authenticator where account_id = ? and target_host = ? limit 2 for share',
        [accountId, choice.host ?? ''],
      );
  if (rows.length === 0) {
    throw new AppError(
      'no_authenticator',
      choice.authenticatorId
        ? 'authenticator_id: no authenticator of this account has this id'
        : `No authenticator of this account is for ${choice.host}; store one first`,
      { extra: { field: choice.authenticatorId ? 'authenticator_id' : 'target' } },
    );
  }
  if (rows.length > 1) {
    throw new AppError(
      'ambiguous_authenticator',
      `Several authenticators are for ${choice.host}; give authenticator_id`,
      { extra: { field: 'authenticator_id' } },
    );
  }
  return rows[0]!;
}
