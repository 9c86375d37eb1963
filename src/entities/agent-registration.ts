/**
 * An agent registration (`reg_…`, type `service_auth`): an agent asked to act for the person whose
 * email is `claimEmail`, and waits until that person claims it on the console.
 *
 * Invariants: every secret it was handed out with (claim token, claim-attempt token, user code)
 * is stored only as a digest; `account` is null until the claim and never changes afterwards;
 * status moves pending → claimed | expired, claimed → revoked, and every move is one conditional
 * UPDATE (see src/domain/agents/registrations.ts), so several instances can never both win a transition.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';
import { baseProperties } from './base.ts';
import { User } from './user.ts';

export const registrationStatuses = ['pending', 'claimed', 'expired', 'revoked'] as const;
export type RegistrationStatus = (typeof registrationStatuses)[number];

export const AgentRegistrationSchema = defineEntity({
  name: 'AgentRegistration',
  properties: {
    ...baseProperties('reg'),
    type: p.string().length(40),
    status: p.enum(registrationStatuses).default('pending'),
    /** The tenant; set by the claim. */
    account: () => p.manyToOne(Account).nullable().index().deleteRule('cascade'),
    /** Who claimed it (audit); cleared if that person is removed. */
    claimedBy: () => p.manyToOne(User).nullable().deleteRule('set null'),
    claimEmail: p.string().length(320),
    /** Space-separated scopes the access tokens will carry once claimed. */
    scope: p.string().length(200),
    claimTokenHash: p.string().length(64).unique(),
    claimAttemptTokenHash: p.string().length(64).unique(),
    userCodeHash: p.string().length(64),
    failedAttempts: p.integer().default(0),
    lastPolledAt: p.datetime().nullable(),
    /** End of the user-code window (`claim.expires_in`). */
    codeExpiresAt: p.datetime(),
    /** End of the claim token's life (`claim_token_expires`). */
    claimTokenExpiresAt: p.datetime().index(),
    claimedAt: p.datetime().nullable(),
    /** When the claim grant handed out the tokens: the claim token is spent from then on. */
    tokensIssuedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    /** The name the agent gave itself at registration (optional), shown on the console. */
    name: p.string().length(100).nullable(),
    /** When one of its access tokens was last accepted (to the minute). */
    lastUsedAt: p.datetime().nullable(),
  },
});

export class AgentRegistration extends AgentRegistrationSchema.class {}
AgentRegistrationSchema.setClass(AgentRegistration);
