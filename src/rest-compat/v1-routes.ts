/**
 * Every /v1 route of the specification (docs/spec/service-interface.md and docs/spec/decisions.md)
 * as a mapping onto a schema operation. Scopes are enforced by the schema; `scope` here documents
 * them in OpenAPI.
 */
import { z } from 'zod';
import { scopes } from '../auth/principal.ts';
import { documents } from './documents.ts';
import { type RestRoute, restRoute } from './rest-route.ts';
import {
  type ApiKeyData,
  type AuthenticatorData,
  apiKeyOut,
  apiKeySchema,
  authenticatorOut,
  authenticatorSchema,
  type MessageData,
  messageOut,
  messageSchema,
  nodes,
  type Page,
  type SessionData,
  scopeIn,
  sessionOut,
  sessionSchema,
  usageRecordSchema,
  type VerdictData,
  verdictOut,
  verdictSchema,
} from './shapes.ts';

const paging = z.strictObject({
  after: z.string().min(1).max(255).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional(),
});
const period = z.string().describe('A UTC month, YYYY-MM').optional();

export const v1Routes: RestRoute[] = [
  restRoute({
    method: 'POST',
    path: '/v1/sessions',
    operationId: 'openChallenge',
    scope: 'sessions:write',
    summary: 'Open a challenge session (billable)',
    description:
      'Assigns a number (sms_otp), an inbox (email_otp, magic_link) or a stored authenticator (totp: `authenticator_id`, else the one whose target has the host of `target`; none is `422 no_authenticator`, several `409 ambiguous_authenticator`). `target` is the site or app the challenge is for; identity providers, payment processors and banks are refused with `unsupported_target`. A refused or failed assignment consumes nothing. Honours `Idempotency-Key`: a repeat within 24 h replays the first answer and bills nothing more.',
    status: 201,
    idempotent: true,
    body: z.strictObject({
      channel: z.enum(['sms_otp', 'email_otp', 'magic_link', 'totp']).optional(),
      target: z.string().max(2048).optional(),
      number_type: z.enum(['synthetic', 'programmable']).optional(),
      authenticator_id: z.string().max(255).optional().describe('totp only'),
      require_authenticated_sender: z
        .boolean()
        .optional()
        .describe(
          'email_otp and magic_link: only a message whose sender is authenticated (DMARC pass) and, with a target, from its registrable domain yields the verdict; others are listed with `rejected: "sender_not_authenticated"` and the wait goes on',
        ),
    }),
    response: sessionSchema,
    problems: {
      '409': "totp: several authenticators are for the target's host (`ambiguous_authenticator`)",
      '422':
        'The target is refused (`unsupported_target`), or totp: no authenticator has this id or host (`no_authenticator`)',
    },
    operation: documents.openChallenge,
    variables: ({ body }) => ({
      input: {
        channel: body.channel,
        target: body.target,
        numberType: body.number_type,
        authenticatorId: body.authenticator_id,
        requireAuthenticatedSender: body.require_authenticated_sender,
      },
    }),
    result: (data: { openChallenge: SessionData }) => sessionOut(data.openChallenge),
  }),
  restRoute({
    method: 'GET',
    path: '/v1/sessions',
    operationId: 'listSessions',
    scope: 'sessions:read',
    summary: 'List unexpired active sessions (list_numbers)',
    description:
      'Oldest first. When `has_more` is true, call again with the last `session_id` as `after`.',
    query: paging,
    response: z.object({ sessions: z.array(sessionSchema), has_more: z.boolean() }),
    operation: documents.sessions,
    variables: ({ query }) => ({ first: query.limit ?? 20, after: query.after }),
    result: (data: { sessions: Page<SessionData> }) => ({
      sessions: nodes(data.sessions).map(sessionOut),
      has_more: data.sessions.pageInfo.hasNextPage,
    }),
  }),
  restRoute({
    method: 'GET',
    path: '/v1/sessions/:id',
    operationId: 'getSession',
    scope: 'sessions:read',
    summary: 'Read a session',
    response: sessionSchema,
    operation: documents.session,
    variables: ({ params }) => ({ id: params.id }),
    result: (data: { session: SessionData }) => sessionOut(data.session),
  }),
  restRoute({
    method: 'DELETE',
    path: '/v1/sessions/:id',
    operationId: 'closeSession',
    scope: 'sessions:write',
    summary: 'Close a session (release_number)',
    response: z.object({ status: z.literal('completed'), session: sessionSchema }),
    operation: documents.closeChallenge,
    variables: ({ params }) => ({ id: params.id }),
    result: (data: { closeChallenge: { status: string; session: SessionData } }) => ({
      status: data.closeChallenge.status,
      session: sessionOut(data.closeChallenge.session),
    }),
  }),
  restRoute({
    method: 'POST',
    path: '/v1/sessions/:id/reroute',
    operationId: 'rerouteSession',
    scope: 'sessions:write',
    summary: 'Renew an sms_otp session onto a new number (billable)',
    description: 'Honours `Idempotency-Key`: a repeat within 24 h replays the first answer.',
    idempotent: true,
    response: sessionSchema.extend({ previous_number: z.string() }),
    operation: documents.rerouteChallenge,
    variables: ({ params }) => ({ id: params.id }),
    result: (data: { rerouteChallenge: { previousNumber: string; session: SessionData } }) => ({
      ...sessionOut(data.rerouteChallenge.session),
      previous_number: data.rerouteChallenge.previousNumber,
    }),
  }),
  restRoute({
    method: 'GET',
    path: '/v1/sessions/:id/messages',
    operationId: 'getMessages',
    scope: 'sessions:read',
    summary: 'Message metadata and parsed codes (get_messages)',
    description:
      'Raw bodies are never returned. Codes and links need `otp:read`; reading them consumes them, so a later wait does not return them again.',
    query: paging,
    response: z.object({ messages: z.array(messageSchema), has_more: z.boolean() }),
    operation: documents.messages,
    variables: ({ params, query }) => ({
      id: params.id,
      first: query.limit ?? 20,
      after: query.after,
    }),
    result: (data: { messages: Page<MessageData> }) => ({
      messages: nodes(data.messages).map(messageOut),
      has_more: data.messages.pageInfo.hasNextPage,
    }),
  }),
  restRoute({
    method: 'POST',
    path: '/v1/sessions/:id/wait',
    operationId: 'waitForVerdict',
    scope: 'otp:read',
    summary: 'Block until a verdict or the timeout (seconds)',
    description:
      'Returns and consumes the first unconsumed verdict. A timeout is not an error: `200` with `verdict: "timeout"` and `received_at: null`. On a totp session: the code of the current time step with `valid_until`, never a step already served to another session, and never one with under 5 s left (the wait holds for the next step).',
    body: z.strictObject({ timeout: z.number().min(0).max(300).optional() }),
    response: verdictSchema,
    problems: {
      '409': 'The session was closed (`session_closed`)',
      '410': 'The session has expired (`session_expired`)',
      '422': "totp: the session's authenticator was deleted (`no_authenticator`)",
    },
    operation: documents.waitForVerdict,
    variables: ({ params, body }) => ({ id: params.id, timeout: body.timeout }),
    result: (data: { waitForVerdict: VerdictData }) => verdictOut(data.waitForVerdict),
  }),
  restRoute({
    method: 'GET',
    path: '/v1/usage',
    operationId: 'listUsage',
    scope: 'usage:read',
    summary: 'Usage events: one per billable provision',
    query: paging.extend({ period }),
    response: z.object({
      usage: z.array(usageRecordSchema),
      has_more: z.boolean(),
    }),
    operation: documents.usage,
    variables: ({ query }) => ({
      first: query.limit ?? 50,
      after: query.after,
      period: query.period,
    }),
    result: (data: { usage: Page<Record<string, unknown>> }) => ({
      usage: nodes(data.usage).map((u) => ({
        id: u.id,
        kind: u.kind,
        status: u.status,
        session_id: u.sessionId,
        channel: u.channel,
        credential_id: u.credentialId,
        agent_id: u.agentId,
        occurred_at: u.occurredAt,
        settled_at: u.settledAt,
      })),
      has_more: data.usage.pageInfo.hasNextPage,
    }),
  }),
  restRoute({
    method: 'GET',
    path: '/v1/usage/summary',
    operationId: 'usageSummary',
    scope: 'usage:read',
    summary: 'Usage summary of a billing period, with the amount due in integer cents',
    query: z.strictObject({ period }),
    response: z.record(z.string(), z.unknown()),
    operation: documents.usageSummary,
    variables: ({ query }) => ({ period: query.period }),
    result: (data: {
      usageSummary: Record<string, unknown> & { byCredential: Record<string, unknown>[] };
    }) => {
      const s = data.usageSummary;
      return {
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
      };
    },
  }),
  restRoute({
    method: 'GET',
    path: '/v1/api-keys',
    operationId: 'listApiKeys',
    scope: 'keys:manage',
    summary: 'List API keys (secrets are never shown again)',
    response: z.object({ api_keys: z.array(apiKeySchema) }),
    operation: documents.apiKeys,
    variables: () => ({}),
    result: (data: { apiKeys: ApiKeyData[] }) => ({ api_keys: data.apiKeys.map(apiKeyOut) }),
  }),
  restRoute({
    method: 'POST',
    path: '/v1/api-keys',
    operationId: 'createApiKey',
    scope: 'keys:manage',
    summary:
      "Create an API key with at most the caller's scopes; the secret is in this response only",
    status: 201,
    body: z.strictObject({
      name: z.string().max(100).optional(),
      scopes: z
        .array(z.enum(scopes))
        .max(scopes.length * 2)
        .optional(),
    }),
    response: apiKeySchema.extend({ key: z.string() }),
    operation: documents.createApiKey,
    variables: ({ body }) => ({ name: body.name, scopes: body.scopes?.map(scopeIn) }),
    result: (data: { createApiKey: { secret: string; apiKey: ApiKeyData } }) => ({
      ...apiKeyOut(data.createApiKey.apiKey),
      key: data.createApiKey.secret,
    }),
  }),
  restRoute({
    method: 'DELETE',
    path: '/v1/api-keys/:id',
    operationId: 'deleteApiKey',
    scope: 'keys:manage',
    summary: 'Delete an API key; it stops working at once',
    status: 204,
    response: z.null(),
    operation: documents.deleteApiKey,
    variables: ({ params }) => ({ id: params.id }),
    result: () => null,
  }),
  restRoute({
    method: 'GET',
    path: '/v1/authenticators',
    operationId: 'listAuthenticators',
    scope: 'authenticators:manage',
    summary: 'List authenticators (TOTP enrolments; secrets are never shown)',
    description: 'Oldest first. When `has_more` is true, call again with the last `id` as `after`.',
    query: paging,
    response: z.object({ authenticators: z.array(authenticatorSchema), has_more: z.boolean() }),
    operation: documents.authenticators,
    variables: ({ query }) => ({ first: query.limit ?? 20, after: query.after }),
    result: (data: { authenticators: Page<AuthenticatorData> }) => ({
      authenticators: nodes(data.authenticators).map(authenticatorOut),
      has_more: data.authenticators.pageInfo.hasNextPage,
    }),
  }),
  restRoute({
    method: 'POST',
    path: '/v1/authenticators',
    operationId: 'createAuthenticator',
    scope: 'authenticators:manage',
    summary: 'Store an authenticator (TOTP enrolment); its secret is sealed and never shown again',
    description:
      'Give `target` and either `otpauth_uri` (the `otpauth://totp/…` URI behind the QR code) or `secret` (base32, at least 80 bits) with optional `digits` (6–8, default 6), `period` (15–120 s, default 30), `algorithm` (SHA1, SHA256, SHA512; default SHA1), `label` and `issuer`. Anything else is `400 invalid_request` naming the field, and nothing is stored.',
    status: 201,
    body: z.strictObject({
      target: z.string().max(2048),
      otpauth_uri: z.string().max(4096).optional(),
      secret: z.string().max(1024).optional(),
      digits: z.number().int().min(6).max(8).optional(),
      period: z.number().int().min(15).max(120).optional(),
      algorithm: z.enum(['SHA1', 'SHA256', 'SHA512']).optional(),
      label: z.string().max(200).optional(),
      issuer: z.string().max(200).optional(),
    }),
    response: authenticatorSchema,
    operation: documents.createAuthenticator,
    variables: ({ body }) => ({
      input: {
        target: body.target,
        otpauthUri: body.otpauth_uri,
        secret: body.secret,
        digits: body.digits,
        period: body.period,
        algorithm: body.algorithm,
        label: body.label,
        issuer: body.issuer,
      },
    }),
    result: (data: { createAuthenticator: AuthenticatorData }) =>
      authenticatorOut(data.createAuthenticator),
  }),
  restRoute({
    method: 'DELETE',
    path: '/v1/authenticators/:id',
    operationId: 'deleteAuthenticator',
    scope: 'authenticators:manage',
    summary: 'Delete an authenticator and erase its secret',
    status: 204,
    response: z.null(),
    operation: documents.deleteAuthenticator,
    variables: ({ params }) => ({ id: params.id }),
    result: () => null,
  }),
];
