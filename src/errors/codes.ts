/**
 * The one registry of stable error codes.
 *
 * Every face maps these once: problem+json `code` for REST, `extensions.code` for GraphQL,
 * `isError` text for MCP tools, the console's error banner. OAuth endpoints keep RFC 6749 bodies
 * and are not listed here. A test checks that each code is documented in docs/errors.md.
 */
export const errorCodes = {
  invalid_request: { status: 400, title: 'The request is malformed' },
  unsupported_media_type: { status: 415, title: 'The content type is not accepted here' },
  payload_too_large: { status: 413, title: 'The request body is too large' },
  unauthenticated: { status: 401, title: 'Credentials are missing or invalid' },
  insufficient_scope: { status: 403, title: 'The credential lacks a required scope' },
  forbidden: { status: 403, title: 'This action is not allowed' },
  csrf_invalid: { status: 403, title: 'The form has expired; reload the page and try again' },
  not_found: { status: 404, title: 'No such resource' },
  method_not_allowed: { status: 405, title: 'The method is not allowed on this resource' },
  conflict: { status: 409, title: 'The request conflicts with the current state' },
  email_taken: { status: 409, title: 'An account with this email already exists' },
  invalid_credentials: { status: 401, title: 'Email or password is incorrect' },
  rate_limited: { status: 429, title: 'Too many requests; retry later' },
  service_unavailable: { status: 503, title: 'The service is temporarily unavailable' },
  internal_error: { status: 500, title: 'An unexpected error occurred' },
  // Challenge sessions.
  session_limit_reached: {
    status: 429,
    title: 'The credential already holds its maximum of concurrent active sessions',
  },
  no_number_available: { status: 503, title: 'No number is free to assign right now' },
  unsupported_target: { status: 422, title: 'Challenges for this target are not supported' },
  session_closed: { status: 409, title: 'The session was closed' },
  session_expired: { status: 410, title: 'The session has expired' },
  allowance_exhausted: {
    status: 402,
    title: "The free tier's monthly session allowance is used up",
  },
  invalid_user_code: { status: 400, title: 'The code is not correct' },
  claim_wrong_user: { status: 403, title: 'This claim belongs to a different email address' },
  claim_closed: { status: 409, title: 'This agent has already been claimed' },
  claim_expired: { status: 410, title: 'This claim has expired' },
  query_too_complex: { status: 400, title: 'The GraphQL query is too deep or too costly' },
  // Accounts: verified email and mailed links.
  account_disabled: { status: 403, title: 'This account has been disabled by the operator' },
  plan_not_changeable: {
    status: 409,
    title: "The account's plan is set by the operator and cannot be changed here",
  },
  email_unverified: { status: 403, title: "The account's email address is not verified yet" },
  link_invalid: { status: 400, title: 'This link has been used, has expired or is not valid' },
  // Customer webhooks and Idempotency-Key (issue 12).
  webhook_target_not_allowed: {
    status: 422,
    title: 'Webhook URLs must be https and reach a public address',
  },
  webhook_endpoint_limit_reached: {
    status: 409,
    title: 'The account already has its maximum of webhook endpoints',
  },
  idempotency_key_reused: {
    status: 422,
    title: 'This Idempotency-Key was used with a different request',
  },
  idempotency_request_in_progress: {
    status: 409,
    title: 'A request with this Idempotency-Key is still being processed',
  },
  // MCP hosts: the console's consent page.
  authorization_invalid: {
    status: 400,
    title: 'This authorization request has expired or was started in another browser',
  },
  // Authenticator (TOTP) challenges.
  no_authenticator: {
    status: 422,
    title: 'The account has no authenticator for this id or target',
  },
  ambiguous_authenticator: {
    status: 409,
    title: 'Several authenticators match this target; give authenticator_id',
  },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof errorCodes;
