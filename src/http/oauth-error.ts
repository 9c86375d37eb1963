/**
 * How an OAuth refusal leaves a Fastify route: its status, RFC 6749 §5.2 body, `no-store` (the
 * answers of these endpoints may hold secrets) and Retry-After when it has one. The Koa side
 * (oidc-provider's hooks in src/auth/provider.ts) renders the same `oauthBody`.
 */
import type { FastifyReply } from 'fastify';
import { OAuthError, oauthBody } from '../errors/oauth.ts';

export function sendOAuthError(reply: FastifyReply, error: OAuthError) {
  if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
  return reply.status(error.status).header('cache-control', 'no-store').send(oauthBody(error));
}

/**
 * A framework error before the route ran (unparsable or oversized body, wrong content type) as
 * the OAuth refusal it is; undefined for anything that is not the client's mistake.
 */
export function oauthClientError(
  error: unknown,
  text: { malformed: string; tooLarge: string },
): OAuthError | undefined {
  if (error instanceof OAuthError) return error;
  const status = (error as { statusCode?: number }).statusCode;
  if (status === 413) return new OAuthError('invalid_request', text.tooLarge, { status });
  if (status && status >= 400 && status < 500)
    return new OAuthError('invalid_request', text.malformed);
  return undefined;
}
