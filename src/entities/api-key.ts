/**
 * A live API key (`key_…`), sent as `x-api-key: lk_live_…`. The secret is shown once at creation;
 * only its SHA-256 is stored (a copy of the database yields no usable key). `hint` (the prefix and
 * the first characters) lets people tell keys apart in listings.
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
    /** The console user (`usr_…`) or agent registration (`reg_…`) that created it. */
    createdBy: p.string().length(100),
    lastUsedAt: p.datetime().nullable(),
  },
});

export class ApiKey extends ApiKeySchema.class {}
ApiKeySchema.setClass(ApiKey);
