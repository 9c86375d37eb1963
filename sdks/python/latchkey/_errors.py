"""The SDK's two errors: LatchkeyError for every failure the service reports (status, stable code,
Retry-After) and OtpTimeoutError for a wait that ended without a verdict, which the service answers
as a 200 with verdict "timeout": raising it keeps "no code yet" from being mistaken for a code."""
from typing import Any, Dict, Optional


class LatchkeyError(Exception):
    def __init__(
        self,
        message: str,
        *,
        status: int,
        code: str,
        retry_after: Optional[float] = None,
        detail: Optional[str] = None,
    ) -> None:
        super().__init__(message)
        #: HTTP status, or 0 when the service could not be reached.
        self.status = status
        #: The stable error code of docs/errors.md (unauthenticated, rate_limited, ...).
        self.code = code
        #: Seconds the service asked the caller to wait (Retry-After), when it did.
        self.retry_after = retry_after
        self.detail = detail


class OtpTimeoutError(Exception):
    def __init__(
        self, session_id: str, next_step: str, rerouted: Optional[Dict[str, Any]] = None
    ) -> None:
        if rerouted:
            message = (
                f"No code arrived for session {session_id}; it now has the new number "
                f"{rerouted.get('new_number')}: enter it in the app, request a new code and wait again."
            )
        else:
            message = f"No verdict arrived for session {session_id} before the timeout."
        super().__init__(message)
        self.session_id = session_id
        #: The service's advice for what to do next.
        self.next_step = next_step
        #: Set when auto_reroute moved the session onto a new number after the timeout.
        self.rerouted = rerouted
