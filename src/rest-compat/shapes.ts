/**
 * Wire shapes shared by /v1 and MCP: the schema's camelCase results in the snake_case fields of
 * the specification. Absent values are left out rather than sent as null where the spec says a
 * field is "present for" some cases (number, inbox_address, otp_code, magic_link).
 */
import { z } from 'zod';

export interface SessionData {
  id: string;
  channel: string;
  state: string;
  agentId: string;
  target: string | null;
  number: string | null;
  numberType: string | null;
  inboxAddress: string | null;
  expiresAt: string;
  createdAt: string;
  endedAt: string | null;
  firstCodeAt: string | null;
  rerouteCount: number;
  authenticatorId: string | null;
  nextStep: string;
  requireAuthenticatedSender: boolean;
}

/** The `sender` of an email (issue 21): the same fields on every face. */
export interface SenderData {
  address: string | null;
  domain: string | null;
  authenticated: boolean;
  spf: string;
  dkim: string;
  dmarc: string;
}

export interface VerdictData {
  sessionId: string;
  verdict: string;
  receivedAt: string | null;
  otpCode: string | null;
  magicLink: string | null;
  webauthnRequired: boolean;
  from: string | null;
  validUntil: string | null;
  nextStep: string;
  sender: SenderData | null;
  linkDomain: string | null;
  linkMatchesTarget: boolean | null;
}

const present = <T extends Record<string, unknown>>(object: T) =>
  Object.fromEntries(Object.entries(object).filter(([, v]) => v !== null && v !== undefined));

export function sessionOut(s: SessionData) {
  return present({
    session_id: s.id,
    channel: s.channel,
    state: s.state,
    agent_id: s.agentId,
    number: s.number,
    number_type: s.numberType,
    inbox_address: s.inboxAddress,
    target: s.target,
    expires_at: s.expiresAt,
    created_at: s.createdAt,
    ended_at: s.endedAt,
    first_code_at: s.firstCodeAt,
    reroute_count: s.rerouteCount,
    authenticator_id: s.authenticatorId,
    require_authenticated_sender: s.requireAuthenticatedSender,
    next_step: s.nextStep,
  });
}

export function verdictOut(v: VerdictData) {
  if (v.verdict === 'timeout') {
    return {
      session_id: v.sessionId,
      received_at: null,
      verdict: 'timeout',
      next_step: v.nextStep,
    };
  }
  const out = present({
    session_id: v.sessionId,
    received_at: v.receivedAt,
    verdict: v.verdict,
    otp_code: v.otpCode,
    magic_link: v.magicLink,
    webauthn_required: v.webauthnRequired,
    from: v.from,
    valid_until: v.validUntil,
    sender: v.sender,
    link_domain: v.linkDomain,
    next_step: v.nextStep,
  });
  // Present on every magic link: null says there is no target to compare with (issue 21).
  return v.verdict === 'magic_link' ? { ...out, link_matches_target: v.linkMatchesTarget } : out;
}

export interface MessageData {
  id: string;
  sessionId: string;
  medium: string;
  carrier: string;
  from: string;
  to: string;
  receivedAt: string;
  outcome: string;
  codesHidden: boolean;
  rejected: string | null;
  sender: SenderData | null;
  verdict: {
    kind: string;
    otpCode: string | null;
    magicLink: string | null;
    webauthnRequired: boolean;
    consumedAt: string | null;
    linkDomain: string | null;
    linkMatchesTarget: boolean | null;
  } | null;
}

export function messageOut(m: MessageData) {
  return {
    message_id: m.id,
    session_id: m.sessionId,
    medium: m.medium,
    carrier: m.carrier,
    from: m.from,
    to: m.to,
    received_at: m.receivedAt,
    outcome: m.outcome,
    // Absent when accepted (the contract: accepted messages carry no `rejected` value).
    ...(m.rejected ? { rejected: m.rejected } : {}),
    sender: m.sender,
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
  };
}

export interface Page<T> {
  edges: { node: T }[];
  pageInfo: { hasNextPage: boolean };
}
export const nodes = <T>(page: Page<T>) => page.edges.map((edge) => edge.node);

/** GraphQL enum names (SESSIONS_WRITE) back to scope strings (sessions:write). */
export const scopeOut = (name: string) => name.toLowerCase().replace('_', ':');
export const scopeIn = (scope: string) => scope.replace(':', '_').toUpperCase();

export interface ApiKeyData {
  id: string;
  name: string;
  hint: string;
  scopes: string[];
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export function apiKeyOut(k: ApiKeyData) {
  return {
    id: k.id,
    name: k.name,
    hint: k.hint,
    scopes: k.scopes.map(scopeOut),
    created_by: k.createdBy,
    created_at: k.createdAt,
    last_used_at: k.lastUsedAt,
  };
}

/** Response schemas, for OpenAPI. */
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

export const messageSchema = z.object({
  message_id: z.string(),
  session_id: z.string(),
  medium: z.enum(['sms', 'email']),
  carrier: z.string(),
  from: z.string(),
  to: z.string(),
  received_at: z.string(),
  outcome: z.string(),
  rejected: z
    .enum(['sender_not_authenticated'])
    .optional()
    .describe('Why it yielded no verdict; absent when accepted'),
  sender: senderSchema.nullable().describe('null for SMS'),
  codes_hidden: z.boolean(),
  parsed: z
    .object({
      kind: z.string(),
      otp_code: z.string().nullable(),
      magic_link: z.string().nullable(),
      webauthn_required: z.boolean(),
      consumed_at: z.string().nullable(),
      link_domain: z.string().nullable(),
      link_matches_target: z.boolean().nullable(),
    })
    .nullable(),
});

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  hint: z.string(),
  scopes: z.array(z.string()),
  created_by: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});

// --- Customer webhooks (issue 12) ---

export interface WebhookEndpointData {
  id: string;
  url: string;
  events: string[] | null;
  createdAt: string;
  failingSince: string | null;
  disabledAt: string | null;
  previousSecretExpiresAt: string | null;
}

export interface WebhookDeliveryData {
  id: string;
  eventType: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

/** `session.opened` ↔ the schema's `SESSION_OPENED`. */
export const eventTypeIn = (type: string) => type.replace('.', '_').toUpperCase();
const eventTypeOut = (name: string) => name.toLowerCase().replace('_', '.');

export function webhookEndpointOut(e: WebhookEndpointData) {
  return {
    id: e.id,
    url: e.url,
    events: e.events ? e.events.map(eventTypeOut) : null,
    created_at: e.createdAt,
    failing_since: e.failingSince,
    disabled_at: e.disabledAt,
    previous_secret_expires_at: e.previousSecretExpiresAt,
  };
}

export function webhookDeliveryOut(d: WebhookDeliveryData) {
  return {
    id: d.id,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    last_status_code: d.lastStatusCode,
    next_attempt_at: d.nextAttemptAt,
    created_at: d.createdAt,
    delivered_at: d.deliveredAt,
  };
}

export const webhookEventTypeSchema = z.enum([
  'session.opened',
  'session.verdict',
  'session.expired',
  'session.closed',
  'agent.claimed',
  'agent.revoked',
]);

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

export interface AuthenticatorData {
  id: string;
  target: string;
  label: string | null;
  issuer: string | null;
  digits: number;
  period: number;
  algorithm: string;
  createdAt: string;
}

export const authenticatorOut = (a: AuthenticatorData) => ({
  id: a.id,
  target: a.target,
  label: a.label,
  issuer: a.issuer,
  digits: a.digits,
  period: a.period,
  algorithm: a.algorithm,
  created_at: a.createdAt,
});

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

// --- Stock tools (issue 15): the usage record, named `Usage` in OpenAPI ---
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
