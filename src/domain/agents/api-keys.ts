/**
 * Live API keys (`lk_live_…`, header `x-api-key`): created with a name and scopes, the secret shown
 * once, only its SHA-256 stored, and the last use recorded (at most once a minute, so a busy key
 * does not turn every request into a write).
 *
 * A key's scopes are never wider than its creator's: an agent holding `keys:manage` cannot mint a
 * key with scopes the person did not grant it.
 *
 * Lineage: a key minted by an agent (`reg_…`) or by another key (`key_…`) records its origin, so
 * revoking the origin revokes everything derived from it, at once, in one statement: deleting a
 * key deletes the keys it minted (recursively), revoking a registration deletes every key that
 * derives from it. A key is honoured only while its registration is still claimed, so a key
 * minted in the instant a revocation commits is dead on arrival (as access tokens are,
 * src/auth/adapter.ts). Only `resolveApiKey` reads the clock, from its context.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { scopes as allScopes, type Scope } from '../../auth/principal.ts';
import { randomSecret, sha256Hex } from '../../auth/secrets.ts';
import { executePrepared, prepared } from '../../db/prepared.ts';
import { Account } from '../../entities/account.ts';
import { ApiKey } from '../../entities/api-key.ts';
import { AppError } from '../../errors/index.ts';
import type { TimedContext } from '../context.ts';

export const apiKeyPrefix = 'lk_live_';
const apiKeyPattern = /^lk_live_[A-Za-z0-9_-]{43}$/;
const touchEveryMs = 60_000;

export const isApiKeyShaped = (value: string) => apiKeyPattern.test(value);

export interface ApiKeyView {
  id: string;
  name: string;
  hint: string;
  scopes: Scope[];
  created_by: string;
  created_at: string;
  last_used_at: string | null;
}

export const toScopes = (scope: string) =>
  scope.split(' ').filter((s): s is Scope => (allScopes as readonly string[]).includes(s));

export function viewOf(key: ApiKey): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    hint: key.hint,
    scopes: toScopes(key.scope),
    created_by: key.createdBy,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt ? key.lastUsedAt.toISOString() : null,
  };
}

export async function createApiKey(
  em: EntityManager,
  input: { accountId: string; name: string; scopes: readonly Scope[]; createdBy: string },
  allowed: ReadonlySet<Scope>,
): Promise<{ key: ApiKey; secret: string }> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 100) {
    throw new AppError('invalid_request', 'name: use 1 to 100 characters', {
      extra: { field: 'name' },
    });
  }
  const beyond = input.scopes.filter((scope) => !allowed.has(scope));
  if (beyond.length) {
    throw new AppError(
      'forbidden',
      `A key cannot have scopes its creator lacks: ${beyond.join(' ')}`,
    );
  }
  if (input.scopes.length === 0) {
    throw new AppError('invalid_request', 'scopes: choose at least one scope', {
      extra: { field: 'scopes' },
    });
  }
  const lineage = await lineageFor(em, input.createdBy);
  const secret = randomSecret('lk_live').replace(/^lk_live_/, apiKeyPrefix);
  const key = em.create(ApiKey, {
    account: em.getReference(Account, input.accountId),
    name,
    secretHash: sha256Hex(secret),
    hint: `${secret.slice(0, apiKeyPrefix.length + 4)}…`,
    scope: [...new Set(input.scopes)].join(' '),
    createdBy: input.createdBy,
    parentKey: lineage.parentKeyId ? em.getReference(ApiKey, lineage.parentKeyId) : null,
    registrationId: lineage.registrationId,
    lastUsedAt: null,
  });
  await em.flush();
  return { key, secret };
}

export function listApiKeys(em: EntityManager, accountId: string) {
  return em.find(ApiKey, { account: accountId }, { orderBy: { createdAt: 'desc', id: 'asc' } });
}

/** Where a new key comes from: the key that mints it, and the registration behind both. */
async function lineageFor(em: EntityManager, createdBy: string) {
  if (createdBy.startsWith('reg_')) return { parentKeyId: null, registrationId: createdBy };
  if (!createdBy.startsWith('key_')) return { parentKeyId: null, registrationId: null };
  const [parent] = await em.execute<{ registration_id: string | null }[]>(
    'select registration_id from api_key where id = ?',
    [createdBy],
  );
  if (!parent) throw new AppError('unauthenticated', 'The API key minting this key was deleted');
  return { parentKeyId: createdBy, registrationId: parent.registration_id };
}

/**
 * Deletes a key of this account and every key it minted, down the tree, in one statement; the
 * ids deleted (empty when the key is not there, another account's id included). The caller
 * announces them (src/auth/revocation.ts) once this committed.
 */
export async function deleteApiKey(
  em: EntityManager,
  accountId: string,
  id: string,
): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    `with recursive tree as (
       select id from api_key where id = ? and account_id = ?
       union all
       select k.id from api_key k join tree t on k.parent_key_id = t.id)
     delete from api_key where id in (select id from tree) returning id`,
    [id, accountId],
  );
  return rows.map((row) => row.id);
}

/** Deletes every key derived from a registration (its revocation); the ids deleted. */
export async function deleteRegistrationKeys(
  em: EntityManager,
  registrationId: string,
): Promise<string[]> {
  const rows = await em.execute<{ id: string }[]>(
    'delete from api_key where registration_id = ? or created_by = ? returning id',
    [registrationId, registrationId],
  );
  return rows.map((row) => row.id);
}

/** Whether the key still exists and its registration (if any) is still claimed. */
export async function apiKeyLive(em: EntityManager, id: string): Promise<boolean> {
  const rows = await em.execute<{ one: number }[]>(
    `select 1 as one from api_key k left join agent_registration r on r.id = k.registration_id
     where k.id = ? and (k.registration_id is null or r.status = 'claimed')`,
    [id],
  );
  return rows.length === 1;
}

export interface ResolvedApiKey {
  id: string;
  accountId: string;
  scopes: Scope[];
  parentKeyId: string | null;
  registrationId: string | null;
}

/** Every request with an `x-api-key` runs it: a named prepared statement (issue 16). */
const RESOLVE_API_KEY = prepared(
  'api_key_resolve',
  `select k.id, k.account_id, k.scope, k.last_used_at, k.parent_key_id, k.registration_id
   from api_key k left join agent_registration r on r.id = k.registration_id
   where k.secret_hash = ? and (k.registration_id is null or r.status = 'claimed')`,
  { readOnly: true },
);

/** The key behind a presented secret, recording its use; null when unknown. */
export async function resolveApiKey(
  { em, clock }: TimedContext,
  secret: string,
): Promise<ResolvedApiKey | null> {
  const now = clock();
  if (!isApiKeyShaped(secret)) return null;
  const [row] = await executePrepared<{
    id: string;
    account_id: string;
    scope: string;
    last_used_at: Date | null;
    parent_key_id: string | null;
    registration_id: string | null;
  }>(em, RESOLVE_API_KEY, [sha256Hex(secret)]);
  if (!row) return null;
  const lastUsed = row.last_used_at ? new Date(row.last_used_at).getTime() : 0;
  if (now.getTime() - lastUsed >= touchEveryMs) {
    await em.execute(
      'update api_key set last_used_at = ? where id = ? and (last_used_at is null or last_used_at < ?)',
      [now, row.id, new Date(now.getTime() - touchEveryMs)],
    );
  }
  return {
    id: row.id,
    accountId: row.account_id,
    scopes: toScopes(row.scope),
    parentKeyId: row.parent_key_id,
    registrationId: row.registration_id,
  };
}
