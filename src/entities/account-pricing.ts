/**
 * Custom pricing for an enterprise account: its price per billable session and the sessions a
 * month included before that price applies. Absent for free and per-session accounts, whose terms
 * are the published ones.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';

export const AccountPricingSchema = defineEntity({
  name: 'AccountPricing',
  properties: {
    account: () => p.oneToOne(Account).primary().owner(),
    unitPriceCents: p.integer(),
    includedSessions: p.integer().default(0),
    updatedAt: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});

export class AccountPricing extends AccountPricingSchema.class {}
AccountPricingSchema.setClass(AccountPricing);
