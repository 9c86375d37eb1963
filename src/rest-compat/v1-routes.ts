/**
 * Every /v1 route of the specification (docs/spec/service-interface.md and docs/spec/decisions.md)
 * as a mapping onto a schema operation. Scopes are enforced by the schema; `scope` here documents
 * them in OpenAPI.
 */
import { closeChallenge } from './operations/close-challenge.ts';
import { createApiKey } from './operations/create-api-key.ts';
import { createAuthenticator } from './operations/create-authenticator.ts';
import { deleteApiKey } from './operations/delete-api-key.ts';
import { deleteAuthenticator } from './operations/delete-authenticator.ts';
import { getMessages } from './operations/get-messages.ts';
import { getSession } from './operations/get-session.ts';
import { listApiKeys } from './operations/list-api-keys.ts';
import { listAuthenticators } from './operations/list-authenticators.ts';
import { listSessions } from './operations/list-sessions.ts';
import { listUsage } from './operations/list-usage.ts';
import { openChallenge } from './operations/open-challenge.ts';
import { rerouteChallenge } from './operations/reroute-challenge.ts';
import { usageSummary } from './operations/usage-summary.ts';
import { waitForVerdict } from './operations/wait-for-verdict.ts';
import { type RestRoute, restRoute } from './rest-route.ts';

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
    problems: {
      '409': "totp: several authenticators are for the target's host (`ambiguous_authenticator`)",
      '422':
        'The target is refused (`unsupported_target`), or totp: no authenticator has this id or host (`no_authenticator`)',
    },
    operation: openChallenge,
  }),
  restRoute({
    method: 'GET',
    path: '/v1/sessions',
    operationId: 'listSessions',
    scope: 'sessions:read',
    summary: 'List unexpired active sessions (list_numbers)',
    description:
      'Oldest first. When `has_more` is true, call again with the last `session_id` as `after`.',
    operation: listSessions,
  }),
  restRoute({
    method: 'GET',
    path: '/v1/sessions/:id',
    operationId: 'getSession',
    scope: 'sessions:read',
    summary: 'Read a session',
    operation: getSession,
  }),
  restRoute({
    method: 'DELETE',
    path: '/v1/sessions/:id',
    operationId: 'closeSession',
    scope: 'sessions:write',
    summary: 'Close a session (release_number)',
    operation: closeChallenge,
  }),
  restRoute({
    method: 'POST',
    path: '/v1/sessions/:id/reroute',
    operationId: 'rerouteSession',
    scope: 'sessions:write',
    summary: 'Renew an sms_otp session onto a new number (billable)',
    description: 'Honours `Idempotency-Key`: a repeat within 24 h replays the first answer.',
    idempotent: true,
    operation: rerouteChallenge,
  }),
  restRoute({
    method: 'GET',
    path: '/v1/sessions/:id/messages',
    operationId: 'getMessages',
    scope: 'sessions:read',
    summary: 'Message metadata and parsed codes (get_messages)',
    description:
      'Raw bodies are never returned. Codes and links need `otp:read`; reading them consumes them, so a later wait does not return them again.',
    operation: getMessages,
  }),
  restRoute({
    method: 'POST',
    path: '/v1/sessions/:id/wait',
    operationId: 'waitForVerdict',
    scope: 'otp:read',
    summary: 'Block until a verdict or the timeout (seconds)',
    description:
      'Returns and consumes the first unconsumed verdict. A timeout is not an error: `200` with `verdict: "timeout"` and `received_at: null`. On a totp session: the code of the current time step with `valid_until`, never a step already served to another session, and never one with under 5 s left (the wait holds for the next step).',
    problems: {
      '409': 'The session was closed (`session_closed`)',
      '410': 'The session has expired (`session_expired`)',
      '422': "totp: the session's authenticator was deleted (`no_authenticator`)",
    },
    operation: waitForVerdict,
  }),
  restRoute({
    method: 'GET',
    path: '/v1/usage',
    operationId: 'listUsage',
    scope: 'usage:read',
    summary: 'Usage events: one per billable provision',
    operation: listUsage,
  }),
  restRoute({
    method: 'GET',
    path: '/v1/usage/summary',
    operationId: 'usageSummary',
    scope: 'usage:read',
    summary: 'Usage summary of a billing period, with the amount due in integer cents',
    operation: usageSummary,
  }),
  restRoute({
    method: 'GET',
    path: '/v1/api-keys',
    operationId: 'listApiKeys',
    scope: 'keys:manage',
    summary: 'List API keys (secrets are never shown again)',
    operation: listApiKeys,
  }),
  restRoute({
    method: 'POST',
    path: '/v1/api-keys',
    operationId: 'createApiKey',
    scope: 'keys:manage',
    summary:
      "Create an API key with at most the caller's scopes; the secret is in this response only",
    status: 201,
    operation: createApiKey,
  }),
  restRoute({
    method: 'DELETE',
    path: '/v1/api-keys/:id',
    operationId: 'deleteApiKey',
    scope: 'keys:manage',
    summary: 'Delete an API key; it stops working at once',
    status: 204,
    operation: deleteApiKey,
  }),
  restRoute({
    method: 'GET',
    path: '/v1/authenticators',
    operationId: 'listAuthenticators',
    scope: 'authenticators:manage',
    summary: 'List authenticators (TOTP enrolments; secrets are never shown)',
    description: 'Oldest first. When `has_more` is true, call again with the last `id` as `after`.',
    operation: listAuthenticators,
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
    operation: createAuthenticator,
  }),
  restRoute({
    method: 'DELETE',
    path: '/v1/authenticators/:id',
    operationId: 'deleteAuthenticator',
    scope: 'authenticators:manage',
    summary: 'Delete an authenticator and erase its secret',
    status: 204,
    operation: deleteAuthenticator,
  }),
];
