/**
 * How errors leave the schema. An AppError keeps its message and gains `extensions.code` (and any
 * safe extras such as the missing `scope`); an unreachable dependency is `service_unavailable`
 * with `retryAfter`; anything else unexpected is masked as `internal_error` with no detail, and
 * logged by the caller.
 *
 * A syntax or validation error is the client's mistake. Its code is read from what the error
 * carries, never guessed from its wording: `extensions.code` when the rule that raised it set a
 * registry code (the limits in limits.ts, the complexity plugin and single-wait.ts set
 * `query_too_complex`), else yoga's `extensions.http.status` (405 for a mutation over GET is
 * `method_not_allowed`, kept as 405 with its `Allow` header), else `invalid_request`. Masking twice
 * (the WebSocket path does) therefore gives the same code.
 */
import { GraphQLError } from 'graphql';
import {
  AppError,
  type ErrorCode,
  errorCodes,
  isAppError,
  isDependencyUnavailable,
  unavailableError,
} from '../errors/index.ts';

const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(errorCodes, code);

/** The registry codes of the HTTP statuses yoga itself refuses a request with. */
const yogaStatusCodes: Record<number, ErrorCode> = {
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

interface HttpExtension {
  status?: number;
  headers?: Record<string, string>;
}

/** The stable code of a client's syntax or validation error, from what the error carries. */
function clientErrorCode(error: GraphQLError): { code: ErrorCode; http?: HttpExtension } {
  if (isErrorCode(error.extensions.code)) return { code: error.extensions.code };
  const http = error.extensions.http as HttpExtension | undefined;
  const byStatus = http?.status === undefined ? undefined : yogaStatusCodes[http.status];
  return byStatus ? { code: byStatus, http } : { code: 'invalid_request' };
}

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
    const { code, http } = clientErrorCode(located);
    return new GraphQLError(located.message, {
      ...where,
      extensions: { code, ...(http ? { http } : {}) },
    });
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
  return new AppError(masked.extensions.code as ErrorCode, masked.message);
}
