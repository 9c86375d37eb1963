/**
 * A verdict: what a stored message yielded for its session (a code, a link, or the news that the
 * app wants a passkey). Delivered exactly once: `consumed_at` is set by one conditional update
 * (`… where consumed_at is null`), whoever wins — a waiter on any instance, or a message listing.
 *
 * `secret` holds the code and link sealed like raw bodies and is nulled at retention.
 * `published_at` is the outbox mark: set once the verdict event went out after commit; a sweeper
 * republishes verdicts left unmarked (a crash between commit and publish), so no waiter misses one.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { ChallengeSession } from './challenge-session.ts';
import { InboundMessage } from './inbound-message.ts';

export const verdictKinds = ['otp_code', 'magic_link', 'webauthn_required'] as const;
export type VerdictKind = (typeof verdictKinds)[number];

export const VerdictSchema = defineEntity({
  name: 'Verdict',
  indexes: [
    {
      name: 'verdict_unconsumed_index',
      expression:
        'create index "verdict_unconsumed_index" on "verdict" ("session_id", "received_at") where "consumed_at" is null',
    },
    {
      name: 'verdict_unpublished_index',
      expression:
        'create index "verdict_unpublished_index" on "verdict" ("received_at") where "published_at" is null',
    },
  ],
  properties: {
    id: p.string().primary(),
    message: () => p.oneToOne(InboundMessage).owner(),
    session: () => p.manyToOne(ChallengeSession),
    kind: p.enum(verdictKinds),
    secret: p.blob().nullable(),
    webauthnRequired: p.boolean(),
    confidence: p.double(),
    receivedAt: p.datetime(),
    consumedAt: p.datetime().nullable(),
    consumedBy: p.string().length(255).nullable(),
    publishedAt: p.datetime().nullable(),
    /** Magic links: the link's registrable domain (public suffix list), kept past retention. */
    linkDomain: p.string().length(255).nullable(),
  },
});

export class Verdict extends VerdictSchema.class {}
VerdictSchema.setClass(Verdict);
