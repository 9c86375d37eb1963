/**
 * "A dependency is down" told apart from "something is broken": a database or Redis that cannot
 * be reached is an outage the caller can wait out, so it is `service_unavailable` (503 with
 * Retry-After) on every face, never `internal_error` (500) and never a credential refusal.
 *
 * Recognised by what the drivers actually throw (pg, pg-pool, MikroORM, ioredis, node:net), looking
 * through wrappers (`cause`, GraphQL's `originalError`, AggregateError) since each layer wraps
 * the one below. Anything not recognised stays unexpected: guessing "unavailable" for a bug would
 * hide it behind a retry loop.
 */
import { AppError } from './app-error.ts';

/** Seconds a caller is told to wait before retrying while a dependency is unreachable. */
export const UNAVAILABLE_RETRY_AFTER = 5;

/** Socket errors of a peer that is down, unreachable or gone mid-conversation. */
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs meaning "the server cannot serve you now": class 08 (connection exception),
 * the server shutting down or starting (57P01–57P03), and too many connections (53300).
 */
const unavailableSqlState = (code: string) =>
  /^08[0-9A-Z]{3}$/.test(code) || ['57P01', '57P02', '57P03', '53300'].includes(code);

/** Messages pg, pg-pool and ioredis use for a lost or unobtainable connection (they set no code). */
const connectionMessages = [
  /^Connection terminated/, // pg: the server or the network closed the connection
  /^timeout exceeded when trying to connect/, // pg-pool: no connection within connectionTimeoutMillis
  /^Client has encountered a connection error and is not queryable/, // pg
  /^Connection is closed\.?$/, // ioredis
  /^Stream isn't writeable and enableOfflineQueue options is false/, // ioredis
  /^Reached the max retries per request limit/, // ioredis MaxRetriesPerRequestError
];

function isUnavailableCause(error: object): boolean {
  const { name, code, message } = error as { name?: unknown; code?: unknown; message?: unknown };
  if (name === 'ConnectionException' || name === 'MaxRetriesPerRequestError') return true;
  if (typeof code === 'string' && (socketCodes.has(code) || unavailableSqlState(code))) {
    return true;
  }
  return typeof message === 'string' && connectionMessages.some((pattern) => pattern.test(message));
}

/** True when `error`, or anything it wraps, says a dependency could not be reached. */
export function isDependencyUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending = [error];
  while (pending.length) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    // An AppError already decided what it is (a shutdown's own service_unavailable included).
    if (current instanceof AppError) return false;
    if (isUnavailableCause(current)) return true;
    const wrapper = current as { cause?: unknown; originalError?: unknown; errors?: unknown };
    pending.push(wrapper.cause, wrapper.originalError);
    if (Array.isArray(wrapper.errors)) pending.push(...wrapper.errors);
  }
  return false;
}

/** The one refusal every face sends while a dependency is unreachable. */
export function unavailableError(cause?: unknown): AppError {
  return new AppError(
    'service_unavailable',
    `A service dependency is unreachable; retry in ${UNAVAILABLE_RETRY_AFTER} seconds`,
    { retryAfter: UNAVAILABLE_RETRY_AFTER, cause },
  );
}
