"""The sync client, Latchkey: every /v1 operation an agent needs on httpx, with waits that chain
past the service's 300 s limit and raise OtpTimeoutError, paging, 429 retries after Retry-After,
and opens sent with an Idempotency-Key so a retried open is never billed twice. AsyncLatchkey
(_async_client.py) has the same methods."""
import time
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Optional

import httpx

from . import _http
from ._errors import OtpTimeoutError
from ._types import Authenticator, Verdict

if TYPE_CHECKING:
    from ._onboarding import Registration

Json = Dict[str, Any]


class _Keys:
    def __init__(self, client: "Latchkey", path: str, listed: str) -> None:
        self._client, self._path, self._listed = client, path, listed

    def list(self) -> List[Json]:
        return self._client._request("GET", self._path)[self._listed]

    def delete(self, id: str) -> None:
        self._client._request("DELETE", f"{self._path}/{id}")


class ApiKeys(_Keys):
    def create(self, name: Optional[str] = None, scopes: Optional[List[str]] = None) -> Json:
        body: Json = {k: v for k, v in (("name", name), ("scopes", scopes)) if v is not None}
        return self._client._request("POST", self._path, json=body)


class Webhooks(_Keys):
    def create(self, url: str, events: Optional[List[str]] = None) -> Json:
        body: Json = {"url": url, **({"events": events} if events is not None else {})}
        return self._client._request("POST", self._path, json=body, idempotency_key=_http.idempotency_key())


def _enrolment(
    target: str,
    otpauth_uri: Optional[str],
    secret: Optional[str],
    digits: Optional[int],
    period: Optional[int],
    algorithm: Optional[str],
    label: Optional[str],
    issuer: Optional[str],
) -> Json:
    given = {
        "target": target,
        "otpauth_uri": otpauth_uri,
        "secret": secret,
        "digits": digits,
        "period": period,
        "algorithm": algorithm,
        "label": label,
        "issuer": issuer,
    }
    return {k: v for k, v in given.items() if v is not None}


def _session_body(channel: Optional[str], target: Optional[str], extra: Json) -> Json:
    return {k: v for k, v in {"channel": channel, "target": target, **extra}.items() if v is not None}


class Authenticators:
    """Authenticator-app (TOTP) enrolments for channel="totp" sessions; the credential needs the
    authenticators:manage scope. The secret or otpauth:// URI goes in once and never comes back."""

    def __init__(self, client: "Latchkey") -> None:
        self._client = client

    def list(self) -> List[Authenticator]:
        """Every authenticator of the account, oldest first (all pages)."""
        return list(self._client._pages("/v1/authenticators", "authenticators", "id", 100))

    def create(
        self,
        target: str,
        otpauth_uri: Optional[str] = None,
        *,
        secret: Optional[str] = None,
        digits: Optional[int] = None,
        period: Optional[int] = None,
        algorithm: Optional[str] = None,
        label: Optional[str] = None,
        issuer: Optional[str] = None,
    ) -> Authenticator:
        """Stores the otpauth://totp/ URI behind the app's QR code, or its base32 secret."""
        body = _enrolment(target, otpauth_uri, secret, digits, period, algorithm, label, issuer)
        return self._client._request("POST", "/v1/authenticators", json=body)

    def delete(self, id: str) -> None:
        """Deletes it and erases its secret; its open sessions' waits answer no_authenticator."""
        self._client._request("DELETE", f"/v1/authenticators/{id}")


class Latchkey:
    def __init__(
        self,
        api_key: Optional[str] = None,
        access_token: Optional[str] = None,
        base_url: Optional[str] = None,
        *,
        max_retries: int = 3,
        max_retry_after: float = 60.0,
        sleep: Callable[[float], None] = time.sleep,
        http_client: Optional[httpx.Client] = None,
        _credentials: Any = None,
        _wait_limit: float = _http.SERVER_WAIT_LIMIT,
    ) -> None:
        self.base_url = _http.base_url_from(base_url)
        self._credentials = _credentials
        self._headers = None if _credentials else _http.static_headers(api_key, access_token)
        self._max_retries = max_retries
        self._max_retry_after = max_retry_after
        self._sleep = sleep
        self._wait_limit = _wait_limit
        # Waits hold a request up to 300 s, so the read timeout must outlast them.
        self._http = http_client or httpx.Client(timeout=httpx.Timeout(30.0, read=_wait_limit + 30.0))
        self._http.follow_redirects = False
        self.api_keys = ApiKeys(self, "/v1/api-keys", "api_keys")
        self.webhooks = Webhooks(self, "/v1/webhooks", "webhooks")
        self.authenticators = Authenticators(self)

    def __enter__(self) -> "Latchkey":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    @classmethod
    def register(
        cls, claim_email: str, name: str, base_url: Optional[str] = None, scope: Optional[str] = None
    ) -> "Registration":
        from ._onboarding import register

        return register(cls, claim_email=claim_email, name=name, base_url=base_url, scope=scope)

    def _request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Optional[Json] = None,
        idempotency_key: Optional[str] = None,
    ) -> Any:
        url = f"{self.base_url}{path}"
        safe_to_repeat = method == "GET" or idempotency_key is not None
        reauthenticated = False
        attempt = 0
        while True:
            headers = dict(self._credentials.headers() if self._credentials else self._headers)
            headers["accept"] = "application/json"
            if idempotency_key:
                headers["idempotency-key"] = idempotency_key
            query = {k: v for k, v in (params or {}).items() if v is not None}
            try:
                response = self._http.request(method, url, json=json, params=query, headers=headers)
            except httpx.TransportError as error:
                if safe_to_repeat and attempt < self._max_retries:
                    attempt += 1
                    continue
                raise _http.network_error(url, error) from None
            if response.status_code == 401 and self._credentials and not reauthenticated:
                reauthenticated = True
                self._credentials.remint()
                continue
            if response.status_code == 429 and attempt < self._max_retries:
                delay = _http.retry_delay(response, self._max_retry_after)
                if delay is not None:
                    attempt += 1
                    self._sleep(delay)
                    continue
            return _http.parse(response)

    def open_challenge(
        self,
        channel: Optional[str] = None,
        target: Optional[str] = None,
        *,
        authenticator_id: Optional[str] = None,
        require_authenticated_sender: Optional[bool] = None,
        **extra: Any,
    ) -> Json:
        """Opens a challenge session (billable), with an Idempotency-Key so a retry after a lost
        answer returns the same session and is never billed twice. channel "totp" uses the
        authenticator authenticator_id, else the one for target's host. For email channels,
        require_authenticated_sender=True lets only mail that passes DMARC (from target's
        registrable domain, when given) yield the verdict; other mail is listed with
        rejected="sender_not_authenticated" and the wait goes on."""
        extra = {**extra, "authenticator_id": authenticator_id}
        extra["require_authenticated_sender"] = require_authenticated_sender
        body = _session_body(channel, target, extra)
        return self._request("POST", "/v1/sessions", json=body, idempotency_key=_http.idempotency_key())

    def provision(self, target: Optional[str] = None, **extra: Any) -> Json:
        """Alias of open_challenge for an SMS code (channel sms_otp)."""
        return self.open_challenge(channel="sms_otp", target=target, **extra)

    def wait_for_verdict(self, session_id: str, timeout: float = 60, auto_reroute: bool = False) -> Verdict:
        """Waits for the session's verdict and consumes it; raises OtpTimeoutError when none
        arrives within timeout seconds (chained over several requests past the service's limit)."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = max(0.0, deadline - time.monotonic())
            verdict = self._request(
                "POST", f"/v1/sessions/{session_id}/wait", json={"timeout": min(remaining, self._wait_limit)}
            )
            if verdict["verdict"] != "timeout":
                return verdict
            if deadline - time.monotonic() > 0:
                continue
            if not auto_reroute:
                raise OtpTimeoutError(session_id, verdict["next_step"])
            moved = self.reroute(session_id)
            raise OtpTimeoutError(session_id, moved["next_step"], _rerouted(session_id, moved))

    def wait_for_otp(self, session_id: str, timeout: float = 60, auto_reroute: bool = False) -> Verdict:
        """Alias of wait_for_verdict, the SMS wait of older integrations."""
        return self.wait_for_verdict(session_id, timeout=timeout, auto_reroute=auto_reroute)

    def get_session(self, session_id: str) -> Json:
        return self._request("GET", f"/v1/sessions/{session_id}")

    def get_messages(self, session_id: str) -> List[Json]:
        """Every message of the session (all pages). Reading codes consumes them."""
        return list(self._pages(f"/v1/sessions/{session_id}/messages", "messages", "message_id", 100))

    def close_session(self, session_id: str) -> Json:
        return self._request("DELETE", f"/v1/sessions/{session_id}")

    def reroute(self, session_id: str) -> Json:
        """Moves an sms_otp session onto a new number (billable; idempotent like an open)."""
        return self._request(
            "POST", f"/v1/sessions/{session_id}/reroute", idempotency_key=_http.idempotency_key()
        )

    def list_sessions(self, page_size: int = 100) -> Iterator[Json]:
        """Every unexpired active session of the account, oldest first, page after page."""
        return self._pages("/v1/sessions", "sessions", "session_id", page_size)

    def usage(self, period: Optional[str] = None, after: Optional[str] = None, limit: Optional[int] = None) -> Json:
        return self._request("GET", "/v1/usage", params={"period": period, "after": after, "limit": limit})

    def usage_summary(self, period: Optional[str] = None) -> Json:
        return self._request("GET", "/v1/usage/summary", params={"period": period})

    def _pages(self, path: str, field: str, cursor: str, page_size: int) -> Iterator[Json]:
        after = None
        while True:
            page = self._request("GET", path, params={"after": after, "limit": page_size})
            yield from page[field]
            if not page["has_more"] or not page[field]:
                return
            after = page[field][-1][cursor]


def _rerouted(session_id: str, moved: Json) -> Json:
    return {
        "status": "carrier_retry_required",
        "session_id": session_id,
        "new_number": moved.get("number"),
        "previous_number": moved["previous_number"],
        "expires_at": moved["expires_at"],
    }

