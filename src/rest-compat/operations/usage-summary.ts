/** `usageSummary`: a billing period's totals, with the amount due in integer cents. */
import { z } from 'zod';
import { graphql } from '../generated/index.ts';
import { operation } from '../operation.ts';
import { period } from './list-usage.ts';

const cents = z.number().int();

export const usageSummary = operation({
  document: graphql(`
    query UsageSummary($period: String) {
      usageSummary(period: $period) {
        accountId tier periodStart periodEnd sessionsUsed billableSessions pendingSessions
        unbilledSessions includedSessions allowanceRemaining unitPriceCents amountDueCents currency
        byCredential { credentialId sessionsUsed billableSessions }
      }
    }
  `),
  input: z.strictObject({ period }),
  output: z.object({
    account_id: z.string(),
    tier: z.string().describe('`free`, `per_session` or `enterprise`'),
    period_start: z.string().describe('Start of the period (inclusive)'),
    period_end: z.string().describe('End of the period (exclusive)'),
    sessions_used: z.number().int().describe('Opens and reroutes, billed or not'),
    billable_sessions: z.number().int().describe('Sessions that yielded a code or link'),
    pending_sessions: z.number().int().describe('Live sessions without a code yet'),
    unbilled_sessions: z.number().int().describe('Sessions that ended without a code'),
    included_sessions: z.number().int().describe('Sessions the tier includes at no charge'),
    allowance_remaining: z
      .number()
      .int()
      .nullable()
      .describe('Free tier: what is left of the allowance'),
    unit_price_cents: cents.describe('Price of one billable session'),
    amount_due_cents: cents.describe('Amount due for the period'),
    currency: z.string().describe('ISO 4217'),
    by_credential: z.array(
      z.object({
        credential_id: z.string().describe('The agent (reg_…) or API key (key_…)'),
        sessions_used: z.number().int(),
        billable_sessions: z.number().int(),
      }),
    ),
  }),
  variables: (input) => ({ period: input.period }),
  toWire: ({ usageSummary: s }) => ({
    account_id: s.accountId,
    tier: s.tier,
    period_start: s.periodStart,
    period_end: s.periodEnd,
    sessions_used: s.sessionsUsed,
    billable_sessions: s.billableSessions,
    pending_sessions: s.pendingSessions,
    unbilled_sessions: s.unbilledSessions,
    included_sessions: s.includedSessions,
    allowance_remaining: s.allowanceRemaining,
    unit_price_cents: s.unitPriceCents,
    amount_due_cents: s.amountDueCents,
    currency: s.currency,
    by_credential: s.byCredential.map((c) => ({
      credential_id: c.credentialId,
      sessions_used: c.sessionsUsed,
      billable_sessions: c.billableSessions,
    })),
  }),
});
