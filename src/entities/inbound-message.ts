/**
 * A message received for a number or an inbox: SMS from Twilio or the synthetic endpoint, email
 * over SMTP. Stored once (a carrier's id — Twilio's MessageSid, or Message-ID per inbox — is kept
 * as a hashed `dedupe_key` with a unique index), bound at receipt to the session that then held
 * the address; `session` is null for a message nobody held (unrouted, delivered to no one).
 *
 * The raw body is sealed (AES-256-GCM, the message id as associated data) and nulled once the
 * retention passes; no interface ever returns it.
 */
import { defineEntity, p } from '@mikro-orm/core';
import { ChallengeSession } from './challenge-session.ts';

export const messageMedia = ['sms', 'email'] as const;
export type MessageMedium = (typeof messageMedia)[number];

export const messageCarriers = ['twilio', 'synthetic', 'smtp'] as const;
export type MessageCarrier = (typeof messageCarriers)[number];

export const messageOutcomes = ['otp_code', 'magic_link', 'webauthn_required', 'none'] as const;
export type MessageOutcome = (typeof messageOutcomes)[number];

export const messageRejections = ['sender_not_authenticated'] as const;
export type MessageRejection = (typeof messageRejections)[number];

/** RFC 8601 result words, as mailauth reports them. */
export type AuthResult =
  | 'pass'
  | 'fail'
  | 'softfail'
  | 'neutral'
  | 'none'
  | 'temperror'
  | 'permerror'
  | 'policy';

/** The `sender` of an email: its From address and what SPF, DKIM and DMARC said about it. */
export interface SenderAuthentication {
  /** The From header's address; null when the message has none. */
  address: string | null;
  /** Its domain as written; null when there is no From address. */
  domain: string | null;
  /** True exactly when DMARC passes. */
  authenticated: boolean;
  spf: AuthResult;
  dkim: AuthResult;
  dmarc: AuthResult;
}

export const InboundMessageSchema = defineEntity({
  name: 'InboundMessage',
  indexes: [
    { properties: ['session', 'receivedAt'] },
    {
      name: 'inbound_message_retained_index',
      expression:
        'create index "inbound_message_retained_index" on "inbound_message" ("received_at") where "raw_body" is not null',
    },
  ],
  properties: {
    id: p.string().primary(),
    session: () => p.manyToOne(ChallengeSession).nullable(),
    medium: p.enum(messageMedia),
    carrier: p.enum(messageCarriers),
    toAddress: p.string().length(320),
    fromAddress: p.string().length(320),
    /** sha256 of the carrier's own id for this delivery; null when the carrier gave none. */
    dedupeKey: p.string().length(64).nullable().unique(),
    rawBody: p.blob().nullable(),
    sizeBytes: p.integer(),
    outcome: p.enum(messageOutcomes),
    receivedAt: p.datetime(),
    rawPurgedAt: p.datetime().nullable(),
    /** Email: who sent it and whether SPF/DKIM/DMARC vouch for it (issue 21); null for SMS. */
    sender: p.json<SenderAuthentication>().nullable(),
    /** Why the message yielded no verdict although it had one (`sender_not_authenticated`). */
    // varchar(32) without a check, as the migration made it: new reasons need no migration.
    rejected: p.string().length(32).nullable().$type<MessageRejection>(),
  },
});

export class InboundMessage extends InboundMessageSchema.class {}
InboundMessageSchema.setClass(InboundMessage);
