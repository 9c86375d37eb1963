/**
 * AppError: the one error type domain code throws for a caller's mistake or a refused action.
 * Anything else that escapes is unexpected, logged, and shown to clients only as `internal_error`.
 */
import { type ErrorCode, errorCodes } from './codes.ts';

export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly status: number;
  /** Seconds, for `rate_limited` (sent as Retry-After). */
  readonly retryAfter: number | undefined;
  /** Extra machine-readable members, safe to show to the caller. */
  readonly extra: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    detail?: string,
    options: { retryAfter?: number; extra?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(detail ?? errorCodes[code].title, { cause: options.cause });
    this.code = code;
    this.status = errorCodes[code].status;
    this.retryAfter = options.retryAfter;
    this.extra = options.extra;
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;
