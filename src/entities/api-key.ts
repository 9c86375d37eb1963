/**
 * A live API key (`key_…`), sent as `x-api-key: lk_live_…`. The secret is shown once at creation;
 * only its SHA-256 is stored (a copy of the database yields no usable key). `hint` (the prefix and
 * the first characters) lets people tell keys apart in listings. A key made by an agent or by
 * another key records where it comes from, so revoking the origin revokes it too.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';
import { baseProperties } from './base.ts';

export const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  properties: {
    ...baseProperties('key'),
    account: () => p.manyToOne(Account).index().deleteRule('cascade'),
    name: p.string().length(100),
    secretHash: p.string().length(64).unique(),
    hint: p.string().length(40),
    /** Space-separated scopes; never wider than the creator's own. */
    scope: p.string().length(200),
    /** The console user (`usr_…`), agent registration (`reg_…`) or key (`key_…`) that created it. */
    createdBy: p.string().length(100),
    /**
     * Lineage: the key that minted this one. Deleting a key deletes every key it minted, down the
     * whole tree (the foreign key cascades, so a key minted while its parent is being deleted
     * cannot survive it either).
     */
    parentKey: () =>
      p.manyToOne(ApiKey).nullable().index().deleteRule('cascade').updateRule('cascade'),
    /**
     * Lineage: the agent registration this key derives from, directly or through parent keys.
     * Revoking the registration deletes all of them in one statement, and a key is honoured only
     * while its registration is still claimed (src/domain/agents/api-keys.ts).
     */
    registrationId: p.string().length(255).nullable().index(),
    lastUsedAt: p.datetime().nullable(),
  },
});

export class ApiKey extends ApiKeySchema.class {}
ApiKeySchema.setClass(ApiKey);
