/**
 * The registry of OAuth-style error codes, beside codes.ts's problem+json registry.
 *
 * The OAuth faces keep their standard wire formats, so a client library that speaks OAuth reads
 * them unchanged: `{error, error_description}` (RFC 6749 §5.2) from the token, revocation,
 * authorization and client-registration (RFC 7591) endpoints, from the agent registration
 * `POST /agent/identity` and in `WWW-Authenticate` (RFC 6750); `{err, description}` (RFC 8935
 * §2.3) from the security-event receiver. Every code any of them sends is listed here and in
 * docs/errors.md; test/errors/emitted-codes.test.ts reads the source for codes that are not.
 *
 * One path: Latchkey's own OAuth refusals are an `OAuthError` rendered by `oauthBody` (Fastify
 * routes through src/http/oauth-error.ts; oidc-provider's Koa hooks set `ctx.body` from it);
 * oidc-provider's grants throw oidc-provider's own error classes, whose codes are listed here too.
 */

export const oauthErrorCodes = {
  // RFC 6749 §5.2 and §4.1.2.1.
  invalid_request: { status: 400, title: 'The request is malformed or misses a parameter' },
  invalid_client: { status: 401, title: 'Client authentication failed' },
  invalid_grant: { status: 400, title: 'The grant is not valid, has been used or was revoked' },
  unauthorized_client: { status: 400, title: 'The client may not use this grant type' },
  unsupported_grant_type: { status: 400, title: 'The grant type is not supported' },
  invalid_scope: { status: 400, title: 'The scope is unknown or exceeds what may be granted' },
  access_denied: { status: 400, title: 'The person denied the request' },
  unsupported_response_type: { status: 400, title: 'The response type is not supported' },
  server_error: { status: 500, title: 'An unexpected error occurred' },
  temporarily_unavailable: { status: 503, title: 'The service is temporarily unavailable' },
  // RFC 8707: the only resource is Latchkey's own API.
  invalid_target: { status: 400, title: 'The resource is not this service' },
  // RFC 8628 §3.5: the claim grant polls like the device flow.
  authorization_pending: { status: 400, title: 'The person has not claimed the agent yet' },
  slow_down: { status: 400, title: 'Polling too fast; add 5 seconds to the interval' },
  expired_token: { status: 400, title: 'The claim has expired or was locked' },
  // RFC 7591 §3.2.2: MCP hosts registering as clients.
  invalid_redirect_uri: { status: 400, title: 'A redirect URI is not allowed' },
  invalid_client_metadata: { status: 400, title: 'The client metadata is not valid' },
  // RFC 6750 §3.1: in `WWW-Authenticate` on the resource faces.
  invalid_token: { status: 401, title: 'The access token is invalid, expired or revoked' },
  insufficient_scope: { status: 403, title: 'The access token lacks the scope needed' },
  // Latchkey: agent registration and client registration.
  rate_limited: { status: 429, title: 'Too many registrations; retry after Retry-After' },
  anonymous_not_enabled: { status: 400, title: 'Registration type anonymous is not offered' },
  service_auth_not_enabled: {
    status: 400,
    title: 'Registration type service_auth is switched off here',
  },
  identity_assertion_not_enabled: {
    status: 400,
    title: 'Registration type identity_assertion is not offered yet',
  },
} as const satisfies Record<string, { status: number; title: string }>;

export type OAuthErrorCode = keyof typeof oauthErrorCodes;

/** RFC 8935 §2.3 codes of the security-event receiver, plus its own for outages and bugs. */
export const securityEventErrorCodes = {
  invalid_request: { status: 400, title: 'The body is not a well-formed security event token' },
  invalid_key: { status: 400, title: 'The signature did not verify' },
  invalid_issuer: { status: 400, title: 'The issuer is not trusted' },
  invalid_audience: { status: 400, title: 'The audience is not this service' },
  authentication_failed: { status: 400, title: 'The event could not be authenticated' },
  temporarily_unavailable: { status: 503, title: "The issuer's keys could not be fetched" },
  internal_error: { status: 500, title: 'An unexpected error occurred' },
} as const satisfies Record<string, { status: number; title: string }>;

export type SecurityEventErrorCode = keyof typeof securityEventErrorCodes;

/** A refusal on an OAuth face: its code, its status (the registry's unless told), its text. */
export class OAuthError extends Error {
  override name = 'OAuthError';
  readonly code: OAuthErrorCode;
  readonly status: number;
  /** Seconds, for `rate_limited` and `temporarily_unavailable` (sent as Retry-After). */
  readonly retryAfter: number | undefined;

  constructor(
    code: OAuthErrorCode,
    description: string = oauthErrorCodes[code].title,
    options: { status?: number; retryAfter?: number } = {},
  ) {
    super(description);
    this.code = code;
    this.status = options.status ?? oauthErrorCodes[code].status;
    this.retryAfter = options.retryAfter;
  }
}

/** The RFC 6749 §5.2 body of an OAuth refusal. */
export const oauthBody = (error: OAuthError) => ({
  error: error.code,
  error_description: error.message,
});
