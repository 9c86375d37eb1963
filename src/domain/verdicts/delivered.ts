/**
 * What a consumer receives (consume.ts hands it out; waiters, the outbox and the faces pass it on).
 * A type-only leaf, so the waiter registry the domain context holds imports no operation.
 */
import type { MessageMedium, SenderAuthentication } from '../../entities/inbound-message.ts';
import type { VerdictKind } from '../../entities/verdict.ts';

export interface DeliveredVerdict {
  verdictId: string;
  messageId: string;
  sessionId: string;
  kind: VerdictKind;
  otpCode: string | null;
  magicLink: string | null;
  webauthnRequired: boolean;
  receivedAt: Date;
  /** The sender: a phone number, short code or sender id; an email address. */
  from: string;
  medium: MessageMedium;
  /** Email: the From address and whether SPF/DKIM/DMARC vouch for it; null for SMS. */
  sender: SenderAuthentication | null;
  /** Magic links: the link's registrable domain. */
  linkDomain: string | null;
  /** Magic links: whether that is the target's registrable domain; null without a target. */
  linkMatchesTarget: boolean | null;
}
