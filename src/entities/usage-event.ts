/**
 * Usage: one event per successful number or inbox assignment (an open, a reroute), counted against
 * the account and the credential. Each is `pending` while its session may still yield a code,
 * `billable` once the session has yielded one, `not_billed` when it ended without any. Every event,
 * billed or not, counts against the live allowance. A failed assignment writes no event.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { Account } from './account.ts';
import { baseProperties } from './base.ts';
import { ChallengeSession, sessionChannels } from './challenge-session.ts';

export const usageKinds = ['session_opened', 'session_rerouted'] as const;
export type UsageKind = (typeof usageKinds)[number];

export const usageStatuses = ['pending', 'billable', 'not_billed'] as const;
export type UsageStatus = (typeof usageStatuses)[number];

export const UsageEventSchema = defineEntity({
  name: 'UsageEvent',
  indexes: [
    { properties: ['account', 'occurredAt'] },
    { properties: ['credentialId', 'occurredAt'] },
    {
      name: 'usage_event_pending_index',
      expression:
        'create index "usage_event_pending_index" on "usage_event" ("session_id") where "status" = \'pending\'',
    },
  ],
  properties: {
    ...baseProperties('use'),
    account: () => p.manyToOne(Account),
    credentialId: p.string().length(255),
    agentId: p.string().length(255),
    session: () => p.manyToOne(ChallengeSession),
    kind: p.enum(usageKinds),
    channel: p.enum(sessionChannels),
    status: p.enum(usageStatuses),
    occurredAt: p.datetime(),
    settledAt: p.datetime().nullable(),
  },
});

export class UsageEvent extends UsageEventSchema.class {}
UsageEventSchema.setClass(UsageEvent);
