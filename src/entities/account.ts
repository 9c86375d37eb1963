/** A customer account: the tenant every user, agent, key, session and usage record belongs to. */
import { defineEntity, p } from '@mikro-orm/core';
import { baseProperties } from './base.ts';

export const billingTiers = ['free', 'per_session', 'enterprise'] as const;
export type BillingTier = (typeof billingTiers)[number];

export const AccountSchema = defineEntity({
  name: 'Account',
  indexes: [
    {
      name: 'account_scheduled_tier_at_index',
      expression:
        'create index "account_scheduled_tier_at_index" on "account" ("scheduled_tier_at") where "scheduled_tier_at" is not null',
    },
  ],
  properties: {
    ...baseProperties('acc'),
    name: p.string().length(200),
    tier: p.enum(billingTiers).default('free'),
    /** Set by the operator (`npm run admin -- disable`): nobody signs in, its credentials are gone. */
    disabledAt: p.datetime().nullable(),
    /** Per session: when billing started (an upgrade bills from then on, not the whole month). */
    billingSince: p.datetime().nullable(),
    /** A plan change that takes effect at `scheduledTierAt` (a downgrade: the next UTC month). */
    scheduledTier: p.enum(billingTiers).nullable(),
    scheduledTierAt: p.datetime().nullable(),
  },
});

export class Account extends AccountSchema.class {}
AccountSchema.setClass(Account);
