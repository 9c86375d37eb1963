/**
 * Live API keys (`lk_live_…`, header `x-api-key`): created with a name and scopes, the secret shown
 * once, only its SHA-256 stored, and the last use recorded (at most once a minute, so a busy key
 * does not turn every request into a write).
 *
 * A key's scopes are never wider than its creator's: an agent holding `keys:manage` cannot mint a
 * key with scopes the person did not grant it.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { Account } from '../entities/account.ts';
import { ApiKey } from '../entities/api-key.ts';
import { AppError } from '../errors/index.ts';
import { scopes as allScopes, type Scope } from './principal.ts';
import { randomSecret, sha256Hex } from './secrets.ts';

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
  const secret = randomSecret('lk_live').replace(/^lk_live_/, apiKeyPrefix);
  const key = em.create(ApiKey, {
    account: em.getReference(Account, input.accountId),
    name,
    secretHash: sha256Hex(secret),
    hint: `${secret.slice(0, apiKeyPrefix.length + 4)}…`,
    scope: [...new Set(input.scopes)].join(' '),
    createdBy: input.createdBy,
    lastUsedAt: null,
  });
  await em.flush();
  return { key, secret };
}

export function listApiKeys(em: EntityManager, accountId: string) {
  return em.find(ApiKey, { account: accountId }, { orderBy: { createdAt: 'desc', id: 'asc' } });
}

/** Deletes a key of this account; false when there is none (another account's id included). */
export async function deleteApiKey(em: EntityManager, accountId: string, id: string) {
  const deleted = await em.nativeDelete(ApiKey, { id, account: accountId });
  return deleted > 0;
}

export interface ResolvedApiKey {
  id: string;
  accountId: string;
  scopes: Scope[];
}

/** The key behind a presented secret, recording its use; null when unknown. */
export async function resolveApiKey(
  em: EntityManager,
  secret: string,
  now = new Date(),
): Promise<ResolvedApiKey | null> {
  if (!isApiKeyShaped(secret)) return null;
  const [row] = await em.execute<
    { id: string; account_id: string; scope: string; last_used_at: Date | null }[]
  >('select id, account_id, scope, last_used_at from api_key where secret_hash = ?', [
    sha256Hex(secret),
  ]);
  if (!row) return null;
  const lastUsed = row.last_used_at ? new Date(row.last_used_at).getTime() : 0;
  if (now.getTime() - lastUsed >= touchEveryMs) {
    await em.execute(
      'update api_key set last_used_at = ? where id = ? and (last_used_at is null or last_used_at < ?)',
      [now, row.id, new Date(now.getTime() - touchEveryMs)],
    );
  }
  return { id: row.id, accountId: row.account_id, scopes: toScopes(row.scope) };
}
