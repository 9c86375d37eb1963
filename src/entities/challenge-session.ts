/**
 * A challenge session: one number (sms_otp), one inbox (email_otp, magic_link) or the codes of one
 * stored authenticator (totp) lent to an agent until it is closed (`completed`) or its `expires_at`
 * passes (`expired`).
 *
 * Invariants, held by the database and not by process memory:
 * - a number serves at most one active session (partial unique index on `number` where active);
 * - an inbox address is handed out once, ever (unique over all states);
 * - `state` only moves from `active` to `completed` or `expired`, by conditional updates.
 * A session whose `expires_at` has passed is expired even before the sweeper marks it so; every
 * read and every routing decision compares `expires_at` with the clock.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';
import { Authenticator } from './authenticator.ts';
import { baseProperties } from './base.ts';

export const sessionChannels = ['sms_otp', 'email_otp', 'magic_link', 'totp'] as const;
export type SessionChannel = (typeof sessionChannels)[number];

export const sessionStates = ['active', 'completed', 'expired'] as const;
export type SessionState = (typeof sessionStates)[number];

export const numberTypes = ['synthetic', 'programmable'] as const;
export type NumberType = (typeof numberTypes)[number];

export const ChallengeSessionSchema = defineEntity({
  name: 'ChallengeSession',
  indexes: [
    { properties: ['account', 'createdAt'] },
    {
      name: 'challenge_session_active_number_unique',
      expression:
        'create unique index "challenge_session_active_number_unique" on "challenge_session" ("number") where "state" = \'active\'',
    },
    {
      name: 'challenge_session_active_credential_index',
      expression:
        'create index "challenge_session_active_credential_index" on "challenge_session" ("credential_id", "expires_at") where "state" = \'active\'',
    },
    {
      name: 'challenge_session_active_expiry_index',
      expression:
        'create index "challenge_session_active_expiry_index" on "challenge_session" ("expires_at") where "state" = \'active\'',
    },
  ],
  properties: {
    ...baseProperties('ses'),
    account: () => p.manyToOne(Account),
    /** The credential (registration `reg_…` or key `key_…`) limits and usage are counted against. */
    credentialId: p.string().length(255),
    /** Which agent or key opened the session, as returned in `agent_id`. */
    agentId: p.string().length(255),
    channel: p.enum(sessionChannels),
    state: p.enum(sessionStates).default('active'),
    /** The site or app the challenge is for, as given, and its registrable domain. */
    target: p.string().length(2048).nullable(),
    targetDomain: p.string().length(255).nullable(),
    number: p.string().length(16).nullable(),
    numberType: p.enum(numberTypes).nullable(),
    inboxAddress: p.string().length(320).nullable().unique(),
    expiresAt: p.datetime(),
    endedAt: p.datetime().nullable(),
    /** When the first code or link arrived: from then on the session's usage is billable. */
    firstCodeAt: p.datetime().nullable(),
    rerouteCount: p.integer().default(0),
    /** totp only: the authenticator whose codes the session hands out (null once it is deleted). */
    authenticator: () =>
      p.manyToOne(Authenticator).nullable().deleteRule('set null').updateRule('cascade'),
    /** email_otp, magic_link: only an authenticated sender (of the target's domain) yields a verdict. */
    requireAuthenticatedSender: p.boolean().default(false),
  },
});

export class ChallengeSession extends ChallengeSessionSchema.class {}
ChallengeSessionSchema.setClass(ChallengeSession);
