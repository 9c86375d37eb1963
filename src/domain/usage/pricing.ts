/**
 * Enterprise pricing agreements: an operator records an account's unit price and included
 * sessions (an operation for staff tooling, not for the account's own credentials).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { validate } from '../../errors/index.ts';

export const pricingInput = z.strictObject({
  unitPriceCents: z.number().int().min(0).max(100_000),
  includedSessions: z.number().int().min(0).default(0),
});

export async function setEnterprisePricing(
  em: EntityManager,
  accountId: string,
  rawInput: z.input<typeof pricingInput>,
) {
  const input = validate(pricingInput, rawInput);
  await em.execute(
    `insert into account_pricing (account_id, unit_price_cents, included_sessions, updated_at)
     values (?, ?, ?, ?)
     on conflict (account_id) do update set unit_price_cents = excluded.unit_price_cents,
       included_sessions = excluded.included_sessions, updated_at = excluded.updated_at`,
    [accountId, input.unitPriceCents, input.includedSessions, new Date()],
  );
}
