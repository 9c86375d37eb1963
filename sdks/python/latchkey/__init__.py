"""latchkey: open sign-in challenge sessions, wait for the one-time code or magic link, and verify
webhook deliveries. Latchkey is the sync client, AsyncLatchkey the asyncio one; both on httpx."""
from ._async_client import AsyncLatchkey
from ._client import Latchkey
from ._errors import LatchkeyError, OtpTimeoutError
from ._onboarding import AsyncRegistration, Registration
from ._types import Authenticator, AuthResult, Sender, Verdict
from ._webhooks import verify_webhook

__all__ = [
    "AsyncLatchkey",
    "AsyncRegistration",
    "AuthResult",
    "Authenticator",
    "Latchkey",
    "LatchkeyError",
    "OtpTimeoutError",
    "Registration",
    "Sender",
    "Verdict",
    "verify_webhook",
]
