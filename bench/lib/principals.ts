/**
 * A fresh account and an all-scopes API-key principal on it, for benches that call the domain
 * directly (no HTTP, so no key secret is needed).
 */
import type { App } from '../../src/app.ts';
import { type Principal, scopes } from '../../src/auth/principal.ts';
import { newId } from '../../src/entities/base.ts';

export async function newPrincipal(app: App): Promise<Principal> {
  const accountId = newId('acc');
  await app.db.orm.em
    .fork()
    .execute(
      "insert into account (id, created_at, updated_at, name, tier) values (?, now(), now(), 'bench', 'per_session')",
      [accountId],
    );
  const credentialId = newId('key');
  return {
    kind: 'api_key',
    accountId,
    credentialId,
    agentId: credentialId,
    scopes: new Set(scopes),
  };
}
