/**
 * Error responses for machine clients: RFC 9457 `application/problem+json` with a stable `code`.
 *
 * Every error that leaves the HTTP host passes through `toAppError`, so a client never sees a
 * stack trace or an internal message: known framework errors (bad JSON, wrong content type, body
 * too large) become their stable codes, an unreachable dependency becomes `service_unavailable`
 * (503 with Retry-After), anything unexpected becomes `internal_error`.
 */
import type { FastifyReply } from 'fastify';
import {
  AppError,
  type ErrorCode,
  errorCodes,
  isAppError,
  isDependencyUnavailable,
  unavailableError,
} from '../errors/index.ts';

/** Fastify's own error codes for a client's mistake, mapped onto ours. */
const fastifyClientErrors: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_request',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_request',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_request',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_INVALID_TYPE: 'invalid_request',
  FST_ERR_VALIDATION: 'invalid_request',
  FST_ERR_BAD_URL: 'invalid_request',
  FST_ERR_ASYNC_CONSTRAINT: 'invalid_request',
  FST_CSRF_MISSING_SECRET: 'csrf_invalid',
  FST_CSRF_INVALID_TOKEN: 'csrf_invalid',
  FST_ERR_NOT_FOUND: 'not_found',
};

export interface ClassifiedError {
  error: AppError;
  /** True when the error is ours to fix (log it at error level). */
  unexpected: boolean;
}

export function toAppError(error: unknown): ClassifiedError {
  if (isAppError(error)) return { error, unexpected: false };
  // A database or Redis that cannot be reached is an outage to wait out (503), not our bug (500).
  if (isDependencyUnavailable(error)) return { error: unavailableError(error), unexpected: false };
  const code = (error as { code?: unknown })?.code;
  const status = (error as { statusCode?: unknown })?.statusCode;
  if (typeof code === 'string' && fastifyClientErrors[code]) {
    const mapped = fastifyClientErrors[code];
    const detail = mapped === 'invalid_request' ? clientMessage(error) : undefined;
    return { error: new AppError(mapped, detail), unexpected: false };
  }
  // Any other 4xx from a plugin is still the client's mistake; keep the status family.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return { error: new AppError('payload_too_large'), unexpected: false };
    if (status === 415) return { error: new AppError('unsupported_media_type'), unexpected: false };
    if (status === 429) return { error: new AppError('rate_limited'), unexpected: false };
    return { error: new AppError('invalid_request'), unexpected: false };
  }
  return { error: new AppError('internal_error'), unexpected: true };
}

/** Framework messages about a body are safe to show (they name the problem, never server state). */
function clientMessage(error: unknown): string | undefined {
  const message = (error as { message?: unknown })?.message;
  return typeof message === 'string' && message.length < 300 ? message : undefined;
}

/**
 * The problem's `type`: the code's section of `/docs/errors` on this service (error-docs.ts),
 * absolute when the public base URL is known.
 */
export function problemBody(error: AppError, instance?: string, base = '') {
  return {
    type: `${base}/docs/errors#${error.code}`,
    title: errorCodes[error.code].title,
    status: error.status,
    detail: error.message,
    code: error.code,
    ...(instance ? { instance } : {}),
    ...(error.extra ?? {}),
  };
}

export function sendProblem(reply: FastifyReply, error: AppError) {
  if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
  return reply
    .status(error.status)
    .type('application/problem+json')
    .send(problemBody(error, reply.request.url.split('?')[0], reply.server.problemTypeBase ?? ''));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** `{base_url}`, the prefix of problem `type` URIs (`{base_url}/docs/errors#code`). */
    problemTypeBase?: string;
  }
}
