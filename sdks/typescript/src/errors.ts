/**
 * The SDK's two error classes. `LatchkeyError` is every failure the service reports (its
 * problem+json `code`, the HTTP status and `Retry-After`); `OtpTimeoutError` is a wait that ended
 * without a verdict, which the service answers as a `200` with `verdict: "timeout"`: the SDK raises
 * it so an agent cannot mistake "no code yet" for a code.
 */

export class LatchkeyError extends Error {
  override name = 'LatchkeyError';
  /** HTTP status, or 0 when the service could not be reached. */
  readonly status: number;
  /** The stable error code from docs/errors.md (`unauthenticated`, `rate_limited`, …). */
  readonly code: string;
  /** Seconds the service asked the caller to wait (the `Retry-After` header), when it did. */
  readonly retryAfter: number | undefined;
  readonly detail: string | undefined;

  constructor(
    message: string,
    init: { status: number; code: string; retryAfter?: number; detail?: string },
  ) {
    super(message);
    this.status = init.status;
    this.code = init.code;
    this.retryAfter = init.retryAfter;
    this.detail = init.detail;
  }
}

/** What an SMS wait with `autoReroute` did after its timeout: the session moved to a new number. */
export interface Rerouted {
  status: 'carrier_retry_required';
  sessionId: string;
  newNumber: string | undefined;
  previousNumber: string;
  expiresAt: string;
}

export class OtpTimeoutError extends Error {
  override name = 'OtpTimeoutError';
  readonly sessionId: string;
  /** The service's advice for what to do next (inspect messages, wait again, or close). */
  readonly nextStep: string;
  /** Set when `autoReroute` moved the session onto a new number after the timeout. */
  readonly rerouted: Rerouted | undefined;

  constructor(sessionId: string, nextStep: string, rerouted?: Rerouted) {
    super(
      rerouted
        ? `No code arrived for session ${sessionId}; it now has the new number ${rerouted.newNumber}: enter it in the app, request a new code and wait again.`
        : `No verdict arrived for session ${sessionId} before the timeout.`,
    );
    this.sessionId = sessionId;
    this.nextStep = nextStep;
    this.rerouted = rerouted;
  }
}
