/**
 * The typed topic map: every event Latchkey publishes, by routing key and id.
 *
 * - `session:<sessionId>` — what a waiter on that session needs: a verdict arrived, the session
 *   moved to a new number, or it ended. Waiters and GraphQL subscriptions listen here.
 * - `account:<accountId>` — the account's session activity, for dashboards (the GraphQL
 *   `accountEvents` subscription the console's live page uses).
 * - `credential:revoked` — credentials that stopped being valid (published after the revocation
 *   committed): every instance ends the subscriptions, streams and waits running under them
 *   (src/auth/revocation.ts).
 *
 * Payloads carry ids and timestamps only, never a code, a link or a body: events may cross Redis,
 * and whoever wants the code must consume it from the database (which is what makes delivery
 * exactly-once). Timestamps are ISO strings so payloads survive JSON unchanged.
 *
 * Webhooks are not fed from these events: an event may be lost with its instance, so webhook
 * deliveries are written in the same transaction as the fact (src/domain/webhooks/events.ts, the
 * outbox) and sent by the delivery worker (src/domain/webhooks/worker.ts).
 */
import type { SessionChannel } from '../entities/challenge-session.ts';
import type { VerdictKind } from '../entities/verdict.ts';

export type SessionEvent =
  | { type: 'verdict'; sessionId: string; verdictId: string; kind: VerdictKind; receivedAt: string }
  | {
      type: 'rerouted';
      sessionId: string;
      number: string;
      previousNumber: string;
      expiresAt: string;
    }
  | { type: 'ended'; sessionId: string; state: 'completed' | 'expired'; at: string };

export type AccountEvent =
  | { type: 'session.opened'; sessionId: string; channel: SessionChannel; at: string }
  | { type: 'session.verdict'; sessionId: string; kind: VerdictKind; at: string }
  | { type: 'session.rerouted'; sessionId: string; at: string }
  | { type: 'session.closed'; sessionId: string; at: string }
  | { type: 'session.expired'; sessionId: string; at: string };

/**
 * Credentials revoked together: registration ids (`reg_…`, an agent and everything derived from
 * it), API key ids (`key_…`, a key and the keys it minted) and access-token handles (`tok_…`, a
 * digest of one token, never the token). Handles only: the event crosses Redis.
 */
export interface CredentialRevoked {
  type: 'revoked';
  credentials: string[];
  at: string;
}

/** Routing key → [id, payload], the shape graphql-yoga's `createPubSub` takes. */
export type Topics = {
  session: [sessionId: string, event: SessionEvent];
  account: [accountId: string, event: AccountEvent];
  credential: [kind: 'revoked', event: CredentialRevoked];
};

export type TopicKey = keyof Topics;
export type TopicPayload<K extends TopicKey> = Topics[K][1];

/** The event type on the target: yoga's `${routingKey}:${id}` convention. */
export const topicName = (key: TopicKey, id: string) => `${key}:${id}`;

/**
 * Dispatched locally when the link to other instances was interrupted and is back: events may
 * have been missed meanwhile, so listeners re-check the database once.
 */
export const RESYNC = 'bus:resync';
