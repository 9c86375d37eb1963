/**
 * The entities several operations answer — a session, a verdict, a message, an API key, an
 * authenticator, a webhook endpoint or delivery, a usage event — each written once as a GraphQL
 * fragment (whose TypeScript type graphql-codegen generates from schema.graphql), once as the zod
 * wire shape in the specification's snake_case, and once as the `…ToWire()` between them.
 *
 * Absent values are left out rather than sent as null where the specification says a field is
 * "present for" some cases (number, inbox_address, otp_code, magic_link): `?? undefined` drops the
 * key from the JSON.
 */
import { z } from 'zod';
import { type Scope, scopes } from '../../auth/principal.ts';
import type {
  ApiKeyFieldsFragment,
  AuthenticatorFieldsFragment,
  Scope as GraphQLScope,
  WebhookEventType as GraphQLWebhookEventType,
  MessageFieldsFragment,
  SenderFieldsFragment,
  SessionFieldsFragment,
  UsageEventFieldsFragment,
  VerdictFieldsFragment,
  WebhookDeliveryFieldsFragment,
  WebhookEndpointFieldsFragment,
} from '../generated/graphql.ts';
import { graphql } from '../generated/index.ts';

graphql(`
  fragment SessionFields on ChallengeSession {
    id channel state agentId target number numberType inboxAddress expiresAt createdAt endedAt
    firstCodeAt rerouteCount authenticatorId nextStep requireAuthenticatedSender
  }
`);
graphql(`
  fragment SenderFields on Sender { address domain authenticated spf dkim dmarc }
`);
graphql(`
  fragment VerdictFields on VerdictResult {
    sessionId verdict receivedAt otpCode magicLink webauthnRequired from validUntil nextStep
    sender { ...SenderFields } linkDomain linkMatchesTarget
  }
`);
graphql(`
  fragment MessageFields on Message {
    id sessionId medium carrier from to receivedAt outcome codesHidden rejected
    sender { ...SenderFields }
    verdict { kind otpCode magicLink webauthnRequired consumedAt linkDomain linkMatchesTarget }
  }
`);
graphql(`
  fragment ApiKeyFields on ApiKey { id name hint scopes createdBy createdAt lastUsedAt }
`);
graphql(`
  fragment AuthenticatorFields on Authenticator {
    id target label issuer digits period algorithm createdAt
  }
`);
graphql(`
  fragment UsageEventFields on UsageEvent {
    id kind status sessionId channel credentialId agentId occurredAt settledAt
  }
`);
graphql(`
  fragment WebhookEndpointFields on WebhookEndpoint {
    id url events createdAt failingSince disabledAt previousSecretExpiresAt
  }
`);
graphql(`
  fragment WebhookDeliveryFields on WebhookDelivery {
    id eventType status attempts lastStatusCode nextAttemptAt createdAt deliveredAt
  }
`);

// --- Sessions ---

export const sessionSchema = z.object({
  session_id: z.string(),
  channel: z.enum(['sms_otp', 'email_otp', 'magic_link', 'totp']),
  state: z.enum(['active', 'completed', 'expired']),
  agent_id: z.string(),
  number: z.string().optional().describe('E.164; sms_otp only'),
  number_type: z.enum(['synthetic', 'programmable']).optional(),
  inbox_address: z.string().optional().describe('email_otp and magic_link only'),
  target: z.string().optional(),
  expires_at: z.string(),
  created_at: z.string(),
  ended_at: z.string().optional(),
  first_code_at: z.string().optional(),
  reroute_count: z.number().int(),
  authenticator_id: z.string().optional().describe('totp only'),
  require_authenticated_sender: z
    .boolean()
    .describe('Only an authenticated sender of the target’s domain yields a verdict (issue 21)'),
  next_step: z.string(),
});
export type SessionWire = z.output<typeof sessionSchema>;

export const sessionToWire = (s: SessionFieldsFragment): SessionWire => ({
  session_id: s.id,
  channel: s.channel,
  state: s.state,
  agent_id: s.agentId,
  number: s.number ?? undefined,
  number_type: s.numberType ?? undefined,
  inbox_address: s.inboxAddress ?? undefined,
  target: s.target ?? undefined,
  expires_at: s.expiresAt,
  created_at: s.createdAt,
  ended_at: s.endedAt ?? undefined,
  first_code_at: s.firstCodeAt ?? undefined,
  reroute_count: s.rerouteCount,
  authenticator_id: s.authenticatorId ?? undefined,
  require_authenticated_sender: s.requireAuthenticatedSender,
  next_step: s.nextStep,
});

// --- Email senders (issue 21): the same fields on every face ---

const authResult = z.enum([
  'pass',
  'fail',
  'softfail',
  'neutral',
  'none',
  'temperror',
  'permerror',
  'policy',
]);

export const senderSchema = z
  .object({
    address: z.string().nullable().describe('The From header’s address'),
    domain: z.string().nullable().describe('Its domain as written'),
    authenticated: z.boolean().describe('True exactly when DMARC passes'),
    spf: authResult,
    dkim: authResult.describe('`pass` when any signature verifies'),
    dmarc: authResult,
  })
  .describe(
    'Email only: who sent it and whether SPF, DKIM and DMARC vouch for it (RFC 8601 words)',
  );

const senderToWire = (s: SenderFieldsFragment): z.output<typeof senderSchema> => ({
  address: s.address,
  domain: s.domain,
  authenticated: s.authenticated,
  spf: s.spf,
  dkim: s.dkim,
  dmarc: s.dmarc,
});

// --- Verdicts ---

export const verdictSchema = z.object({
  session_id: z.string(),
  received_at: z.string().nullable(),
  verdict: z.enum(['otp_code', 'magic_link', 'webauthn_required', 'timeout']),
  otp_code: z.string().optional(),
  magic_link: z.string().optional(),
  webauthn_required: z.boolean().optional(),
  from: z.string().optional(),
  valid_until: z
    .string()
    .optional()
    .describe('totp only: the end of the time step the code belongs to'),
  sender: senderSchema.optional(),
  link_domain: z.string().optional().describe('magic_link: the link’s registrable domain'),
  link_matches_target: z
    .boolean()
    .nullable()
    .optional()
    .describe(
      'magic_link: whether link_domain is the target’s registrable domain; null without a target',
    ),
  next_step: z.string(),
});
export type VerdictWire = z.output<typeof verdictSchema>;

export function verdictToWire(v: VerdictFieldsFragment): VerdictWire {
  // The schema types `verdict` as a String; the wire promises one of four words, checked here.
  const verdict = verdictSchema.shape.verdict.parse(v.verdict);
  if (verdict === 'timeout') {
    return { session_id: v.sessionId, received_at: null, verdict, next_step: v.nextStep };
  }
  return {
    session_id: v.sessionId,
    received_at: v.receivedAt,
    verdict,
    otp_code: v.otpCode ?? undefined,
    magic_link: v.magicLink ?? undefined,
    webauthn_required: v.webauthnRequired,
    from: v.from ?? undefined,
    valid_until: v.validUntil ?? undefined,
    sender: v.sender ? senderToWire(v.sender) : undefined,
    link_domain: v.linkDomain ?? undefined,
    next_step: v.nextStep,
    // Present on every magic link: null says there is no target to compare with (issue 21).
    ...(verdict === 'magic_link' ? { link_matches_target: v.linkMatchesTarget } : {}),
  };
}

// --- Messages ---

export const messageSchema = z.object({
  message_id: z.string(),
  session_id: z.string(),
  medium: z.enum(['sms', 'email']),
  carrier: z.enum(['synthetic', 'twilio', 'smtp']),
  from: z.string(),
  to: z.string(),
  received_at: z.string(),
  outcome: z.enum(['otp_code', 'magic_link', 'webauthn_required', 'none']),
  rejected: z
    .enum(['sender_not_authenticated'])
    .optional()
    .describe('Why it yielded no verdict; absent when accepted'),
  sender: senderSchema.nullable().describe('null for SMS'),
  codes_hidden: z.boolean(),
  parsed: z
    .object({
      kind: z.enum(['otp_code', 'magic_link', 'webauthn_required']),
      otp_code: z.string().nullable(),
      magic_link: z.string().nullable(),
      webauthn_required: z.boolean(),
      consumed_at: z.string().nullable(),
      link_domain: z.string().nullable(),
      link_matches_target: z.boolean().nullable(),
    })
    .nullable(),
});

export const messageToWire = (m: MessageFieldsFragment): z.output<typeof messageSchema> => ({
  message_id: m.id,
  session_id: m.sessionId,
  medium: m.medium,
  carrier: m.carrier,
  from: m.from,
  to: m.to,
  received_at: m.receivedAt,
  outcome: m.outcome,
  // Absent when accepted (the contract: accepted messages carry no `rejected` value).
  rejected: m.rejected ?? undefined,
  sender: m.sender ? senderToWire(m.sender) : null,
  codes_hidden: m.codesHidden,
  parsed: m.verdict
    ? {
        kind: m.verdict.kind,
        otp_code: m.verdict.otpCode,
        magic_link: m.verdict.magicLink,
        webauthn_required: m.verdict.webauthnRequired,
        consumed_at: m.verdict.consumedAt,
        link_domain: m.verdict.linkDomain,
        link_matches_target: m.verdict.linkMatchesTarget,
      }
    : null,
});

// --- API keys ---

/**
 * The wire's scope strings (sessions:write) and the schema's Scope enum (SESSIONS_WRITE): a typed
 * table, so a scope added on one side and not the other fails the typecheck.
 */
const scopeNames = {
  'sessions:read': 'SESSIONS_READ',
  'sessions:write': 'SESSIONS_WRITE',
  'otp:read': 'OTP_READ',
  'usage:read': 'USAGE_READ',
  'keys:manage': 'KEYS_MANAGE',
  'authenticators:manage': 'AUTHENTICATORS_MANAGE',
  'webhooks:manage': 'WEBHOOKS_MANAGE',
} as const satisfies Record<Scope, GraphQLScope>;
export const scopeIn = (scope: Scope): GraphQLScope => scopeNames[scope];
const scopeToWire = (name: GraphQLScope) =>
  scopes.find((scope) => scopeNames[scope] === name) ?? name;

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  hint: z.string(),
  scopes: z.array(z.string()),
  created_by: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});

export const apiKeyToWire = (k: ApiKeyFieldsFragment): z.output<typeof apiKeySchema> => ({
  id: k.id,
  name: k.name,
  hint: k.hint,
  scopes: k.scopes.map(scopeToWire),
  created_by: k.createdBy,
  created_at: k.createdAt,
  last_used_at: k.lastUsedAt,
});

// --- Authenticators (TOTP enrolments) ---

/** An authenticator as /v1 answers it: never its secret. */
export const authenticatorSchema = z.object({
  id: z.string(),
  target: z.string(),
  label: z.string().nullable(),
  issuer: z.string().nullable(),
  digits: z.number().int(),
  period: z.number().int(),
  algorithm: z.enum(['SHA1', 'SHA256', 'SHA512']),
  created_at: z.string(),
});

export const authenticatorToWire = (
  a: AuthenticatorFieldsFragment,
): z.output<typeof authenticatorSchema> => ({
  id: a.id,
  target: a.target,
  label: a.label,
  issuer: a.issuer,
  digits: a.digits,
  period: a.period,
  algorithm: a.algorithm,
  created_at: a.createdAt,
});

// --- Usage events (named `Usage` in OpenAPI) ---

export const usageRecordSchema = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.string(),
  session_id: z.string().nullable(),
  channel: z.string().nullable(),
  credential_id: z.string().nullable(),
  agent_id: z.string().nullable(),
  occurred_at: z.string(),
  settled_at: z.string().nullable(),
});

export const usageRecordToWire = (
  u: UsageEventFieldsFragment,
): z.output<typeof usageRecordSchema> => ({
  id: u.id,
  kind: u.kind,
  status: u.status,
  session_id: u.sessionId,
  channel: u.channel,
  credential_id: u.credentialId,
  agent_id: u.agentId,
  occurred_at: u.occurredAt,
  settled_at: u.settledAt,
});

// --- Customer webhooks (issue 12) ---

export const webhookEventTypeSchema = z.enum([
  'session.opened',
  'session.verdict',
  'session.expired',
  'session.closed',
  'agent.claimed',
  'agent.revoked',
]);

/** `session.opened` ↔ the schema's `SESSION_OPENED`: a typed table, like the scopes'. */
const eventTypeNames = {
  'session.opened': 'SESSION_OPENED',
  'session.verdict': 'SESSION_VERDICT',
  'session.expired': 'SESSION_EXPIRED',
  'session.closed': 'SESSION_CLOSED',
  'agent.claimed': 'AGENT_CLAIMED',
  'agent.revoked': 'AGENT_REVOKED',
} as const satisfies Record<z.output<typeof webhookEventTypeSchema>, GraphQLWebhookEventType>;
export const eventTypeIn = (type: z.output<typeof webhookEventTypeSchema>) => eventTypeNames[type];
const eventTypeOut = (name: GraphQLWebhookEventType) =>
  webhookEventTypeSchema.options.find((type) => eventTypeNames[type] === name) ??
  webhookEventTypeSchema.parse(name);

export const webhookEndpointSchema = z.object({
  id: z.string().describe('The endpoint id (`whe_…`)'),
  url: z.string(),
  events: z.array(webhookEventTypeSchema).nullable().describe('null: every event type'),
  created_at: z.string(),
  failing_since: z.string().nullable().describe('Since when every attempt failed'),
  disabled_at: z.string().nullable().describe('Set after 5 days of failures; nothing is sent'),
  previous_secret_expires_at: z
    .string()
    .nullable()
    .describe('After a rotation: until when the old secret still signs'),
});

export const webhookEndpointToWire = (
  e: WebhookEndpointFieldsFragment,
): z.output<typeof webhookEndpointSchema> => ({
  id: e.id,
  url: e.url,
  events: e.events ? e.events.map(eventTypeOut) : null,
  created_at: e.createdAt,
  failing_since: e.failingSince,
  disabled_at: e.disabledAt,
  previous_secret_expires_at: e.previousSecretExpiresAt,
});

export const webhookDeliverySchema = z.object({
  id: z.string().describe('The delivery id, sent as `webhook-id` on every attempt'),
  event_type: z.string(),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
});

export const webhookDeliveryToWire = (
  d: WebhookDeliveryFieldsFragment,
): z.output<typeof webhookDeliverySchema> => ({
  id: d.id,
  event_type: d.eventType,
  status: webhookDeliverySchema.shape.status.parse(d.status),
  attempts: d.attempts,
  last_status_code: d.lastStatusCode,
  next_attempt_at: d.nextAttemptAt,
  created_at: d.createdAt,
  delivered_at: d.deliveredAt,
});
