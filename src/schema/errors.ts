/**
 * How errors leave the schema. An AppError keeps its message and gains `extensions.code` (and any
 * safe extras such as the missing `scope`); a syntax or validation error is the client's mistake,
 * `invalid_request` (or `query_too_complex` for the depth and cost limits); an unreachable
 * dependency is `service_unavailable` with `retryAfter`; anything else is
 * masked as `internal_error` with no detail, and logged by the caller.
 */
import { GraphQLError } from 'graphql';
import {
  AppError,
  isAppError,
  isDependencyUnavailable,
  unavailableError,
} from '../errors/index.ts';

const tooComplex =
  /maximum (introspection )?(complexity|depth|breadth)|depth limit|limit of \d+ exceeded|exceeds/i;

/** The AppError behind a GraphQL error, when there is one. */
export function appErrorOf(error: unknown): AppError | undefined {
  if (isAppError(error)) return error;
  if (error instanceof GraphQLError) return appErrorOf(error.originalError);
  // An unreachable database or Redis: `service_unavailable`, on every face built on the schema.
  if (isDependencyUnavailable(error)) return unavailableError(error);
  return undefined;
}

/** True for an error nobody expected: it must be logged and masked. */
export function isUnexpected(error: unknown): boolean {
  if (appErrorOf(error)) return false;
  if (error instanceof GraphQLError) {
    const original = error.originalError;
    return Boolean(original) && !(original instanceof GraphQLError);
  }
  return true;
}

/** The client's view of an error; the one mapping of every GraphQL error to a stable code. */
export function maskError(error: unknown): GraphQLError {
  const located = error instanceof GraphQLError ? error : undefined;
  const where = {
    nodes: located?.nodes,
    source: located?.source,
    positions: located?.positions,
    path: located?.path,
  };
  const app = appErrorOf(error);
  if (app) {
    return new GraphQLError(app.message, {
      ...where,
      extensions: {
        code: app.code,
        ...(app.retryAfter !== undefined ? { retryAfter: app.retryAfter } : {}),
        ...(app.extra ?? {}),
      },
    });
  }
  if (located && !isUnexpected(located)) {
    const code = tooComplex.test(located.message) ? 'query_too_complex' : 'invalid_request';
    return new GraphQLError(located.message, { ...where, extensions: { code } });
  }
  return new GraphQLError('An unexpected error occurred', {
    ...where,
    extensions: { code: 'internal_error' },
  });
}

/** Turns the first error of an in-process execution back into an AppError (for /v1 and MCP). */
export function toAppErrorFromGraphQL(errors: readonly GraphQLError[]): AppError {
  const first = errors[0];
  const app = appErrorOf(first);
  if (app) return app;
  const masked = maskError(first);
  const code = masked.extensions.code as 'invalid_request' | 'internal_error';
  return new AppError(
    code === 'internal_error' ? 'internal_error' : 'invalid_request',
    masked.message,
  );
}
