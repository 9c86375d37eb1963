/**
 * Credentials for face tests: an account of its own and live API keys with chosen scopes, made
 * through the same domain functions the console and /v1/api-keys use.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { type Scope, scopes } from '../../src/auth/principal.ts';
import { createApiKey } from '../../src/domain/agents/api-keys.ts';
import { Account } from '../../src/entities/account.ts';
import { User } from '../../src/entities/user.ts';
import type { TestApp } from './app.ts';

export const allScopes: readonly Scope[] = scopes;

/** Every non-empty subset of the scopes (2^n - 1 of them). */
export const scopeSets: Scope[][] = Array.from({ length: 2 ** scopes.length - 1 }, (_, i) =>
  scopes.filter((_scope, bit) => ((i + 1) >> bit) & 1),
);

export async function newAccount(
  t: TestApp,
  tier: 'free' | 'per_session' | 'enterprise' = 'per_session',
) {
  const em = t.app.db.orm.em.fork() as EntityManager;
  const account = em.create(Account, { name: 'face tests', tier });
  // Its person has verified their email, as every account that may act (claim agents, create
  // keys and webhook endpoints) has.
  em.create(User, {
    account,
    email: `owner-${account.id}@example.test`,
    emailVerifiedAt: new Date(),
  });
  await em.flush();
  return account.id;
}

export async function apiKey(
  t: TestApp,
  accountId: string,
  keyScopes: readonly Scope[] = allScopes,
) {
  const em = t.app.db.orm.em.fork() as EntityManager;
  const { secret } = await createApiKey(
    em,
    {
      accountId,
      name: `key ${keyScopes.join(' ')}`.slice(0, 100),
      scopes: keyScopes,
      createdBy: 'test',
    },
    new Set(allScopes),
  );
  return secret;
}

export const withKey = (key: string) => ({ 'x-api-key': key });
