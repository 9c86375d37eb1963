"""AsyncLatchkey: the same methods as Latchkey (_client.py) for asyncio code, on httpx.AsyncClient;
list_sessions is an async iterator."""
import asyncio
import time
from typing import TYPE_CHECKING, Any, AsyncIterator, Awaitable, Callable, List, Optional

import httpx

from . import _http
from ._client import Json, _enrolment, _rerouted, _session_body
from ._errors import OtpTimeoutError
from ._types import Authenticator, Verdict

if TYPE_CHECKING:
    from ._onboarding import AsyncRegistration


class _AsyncKeys:
    def __init__(self, client: "AsyncLatchkey", path: str, listed: str) -> None:
        self._client, self._path, self._listed = client, path, listed

    async def list(self) -> List[Json]:
        return (await self._client._request("GET", self._path))[self._listed]

    async def delete(self, id: str) -> None:
        await self._client._request("DELETE", f"{self._path}/{id}")


class AsyncApiKeys(_AsyncKeys):
    async def create(self, name: Optional[str] = None, scopes: Optional[List[str]] = None) -> Json:
        body: Json = {k: v for k, v in (("name", name), ("scopes", scopes)) if v is not None}
        return await self._client._request("POST", self._path, json=body)


class AsyncWebhooks(_AsyncKeys):
    async def create(self, url: str, events: Optional[List[str]] = None) -> Json:
        body: Json = {"url": url, **({"events": events} if events is not None else {})}
        return await self._client._request(
            "POST", self._path, json=body, idempotency_key=_http.idempotency_key()
        )


class AsyncAuthenticators:
    """Authenticator-app (TOTP) enrolments, as Latchkey.authenticators."""

    def __init__(self, client: "AsyncLatchkey") -> None:
        self._client = client

    async def list(self) -> List[Authenticator]:
        return [a async for a in self._client._pages("/v1/authenticators", "authenticators", "id", 100)]

    async def create(
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
        body = _enrolment(target, otpauth_uri, secret, digits, period, algorithm, label, issuer)
        return await self._client._request("POST", "/v1/authenticators", json=body)

    async def delete(self, id: str) -> None:
        await self._client._request("DELETE", f"/v1/authenticators/{id}")


class AsyncLatchkey:
    def __init__(
        self,
        api_key: Optional[str] = None,
        access_token: Optional[str] = None,
        base_url: Optional[str] = None,
        *,
        max_retries: int = 3,
        max_retry_after: float = 60.0,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        http_client: Optional[httpx.AsyncClient] = None,
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
        self._http = http_client or httpx.AsyncClient(timeout=httpx.Timeout(30.0, read=_wait_limit + 30.0))
        self._http.follow_redirects = False
        self.api_keys = AsyncApiKeys(self, "/v1/api-keys", "api_keys")
        self.webhooks = AsyncWebhooks(self, "/v1/webhooks", "webhooks")
        self.authenticators = AsyncAuthenticators(self)

    async def __aenter__(self) -> "AsyncLatchkey":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    @classmethod
    async def register(
        cls, claim_email: str, name: str, base_url: Optional[str] = None, scope: Optional[str] = None
    ) -> "AsyncRegistration":
        from ._onboarding import register_async

        return await register_async(cls, claim_email=claim_email, name=name, base_url=base_url, scope=scope)

    async def _request(
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
            headers = dict(await self._credentials.headers() if self._credentials else self._headers)
            headers["accept"] = "application/json"
            if idempotency_key:
                headers["idempotency-key"] = idempotency_key
            query = {k: v for k, v in (params or {}).items() if v is not None}
            try:
                response = await self._http.request(method, url, json=json, params=query, headers=headers)
            except httpx.TransportError as error:
                if safe_to_repeat and attempt < self._max_retries:
                    attempt += 1
                    continue
                raise _http.network_error(url, error) from None
            if response.status_code == 401 and self._credentials and not reauthenticated:
                reauthenticated = True
                await self._credentials.remint()
                continue
            if response.status_code == 429 and attempt < self._max_retries:
                delay = _http.retry_delay(response, self._max_retry_after)
                if delay is not None:
                    attempt += 1
                    await self._sleep(delay)
                    continue
            return _http.parse(response)

    async def open_challenge(
        self,
        channel: Optional[str] = None,
        target: Optional[str] = None,
        *,
        authenticator_id: Optional[str] = None,
        require_authenticated_sender: Optional[bool] = None,
        **extra: Any,
    ) -> Json:
        extra = {**extra, "authenticator_id": authenticator_id}
        extra["require_authenticated_sender"] = require_authenticated_sender
        body = _session_body(channel, target, extra)
        return await self._request("POST", "/v1/sessions", json=body, idempotency_key=_http.idempotency_key())

    async def provision(self, target: Optional[str] = None, **extra: Any) -> Json:
        return await self.open_challenge(channel="sms_otp", target=target, **extra)

    async def wait_for_verdict(self, session_id: str, timeout: float = 60, auto_reroute: bool = False) -> Verdict:
        deadline = time.monotonic() + timeout
        while True:
            remaining = max(0.0, deadline - time.monotonic())
            verdict = await self._request(
                "POST", f"/v1/sessions/{session_id}/wait", json={"timeout": min(remaining, self._wait_limit)}
            )
            if verdict["verdict"] != "timeout":
                return verdict
            if deadline - time.monotonic() > 0:
                continue
            if not auto_reroute:
                raise OtpTimeoutError(session_id, verdict["next_step"])
            moved = await self.reroute(session_id)
            raise OtpTimeoutError(session_id, moved["next_step"], _rerouted(session_id, moved))

    async def wait_for_otp(self, session_id: str, timeout: float = 60, auto_reroute: bool = False) -> Verdict:
        return await self.wait_for_verdict(session_id, timeout=timeout, auto_reroute=auto_reroute)

    async def get_session(self, session_id: str) -> Json:
        return await self._request("GET", f"/v1/sessions/{session_id}")

    async def get_messages(self, session_id: str) -> List[Json]:
        return [m async for m in self._pages(f"/v1/sessions/{session_id}/messages", "messages", "message_id", 100)]

    async def close_session(self, session_id: str) -> Json:
        return await self._request("DELETE", f"/v1/sessions/{session_id}")

    async def reroute(self, session_id: str) -> Json:
        return await self._request(
            "POST", f"/v1/sessions/{session_id}/reroute", idempotency_key=_http.idempotency_key()
        )

    def list_sessions(self, page_size: int = 100) -> AsyncIterator[Json]:
        return self._pages("/v1/sessions", "sessions", "session_id", page_size)

    async def usage(self, period: Optional[str] = None, after: Optional[str] = None, limit: Optional[int] = None) -> Json:
        return await self._request("GET", "/v1/usage", params={"period": period, "after": after, "limit": limit})

    async def usage_summary(self, period: Optional[str] = None) -> Json:
        return await self._request("GET", "/v1/usage/summary", params={"period": period})

    async def _pages(self, path: str, field: str, cursor: str, page_size: int) -> AsyncIterator[Json]:
        after = None
        while True:
            page = await self._request("GET", path, params={"after": after, "limit": page_size})
            for item in page[field]:
                yield item
            if not page["has_more"] or not page[field]:
                return
            after = page[field][-1][cursor]
