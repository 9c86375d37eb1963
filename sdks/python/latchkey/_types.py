"""The shapes of what the service answers, for type checkers: at run time they are plain dicts
(the JSON of the /v1 routes, described by the service's /openapi.json)."""
from typing import Literal, Optional, TypedDict

AuthResult = Literal["pass", "fail", "softfail", "neutral", "none", "temperror", "permerror", "policy"]


class Sender(TypedDict):
    """Who sent an email verdict or message (the From address and its domain) and the RFC 8601
    results; authenticated is true exactly when DMARC passes."""

    address: Optional[str]
    domain: Optional[str]
    authenticated: bool
    spf: AuthResult
    dkim: AuthResult
    dmarc: AuthResult


class _VerdictRequired(TypedDict):
    session_id: str
    verdict: Literal["otp_code", "magic_link", "webauthn_required", "timeout"]
    received_at: Optional[str]
    next_step: str


class Verdict(_VerdictRequired, total=False):
    """A wait's answer: otp_code or magic_link by verdict; email verdicts carry sender, magic links
    link_domain and link_matches_target, totp codes valid_until (the end of the code's time step)."""

    otp_code: str
    magic_link: str
    webauthn_required: bool
    sender: Sender
    link_domain: str
    link_matches_target: Optional[bool]
    valid_until: str


class Authenticator(TypedDict):
    """A stored authenticator-app (TOTP) enrolment; its secret is never returned."""

    id: str
    target: str
    label: Optional[str]
    issuer: Optional[str]
    digits: int
    period: int
    algorithm: Literal["SHA1", "SHA256", "SHA512"]
    created_at: str
