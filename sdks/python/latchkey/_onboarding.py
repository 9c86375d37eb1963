"""Agent onboarding (service_auth registration, docs/agent-guide.md): register() asks the service
for a claim; the person named by claim_email enters user_code at verification_uri; claim() polls
the claim grant at the service's interval and returns a client that re-mints its access token with
the jwt-bearer grant (RFC 7523) before it expires, and once more on a 401. The identity assertion
and tokens live only in memory: never logged, never written."""
import asyncio
import time
from typing import Any, Callable, Dict, Optional

import httpx

from . import _http
from ._errors import LatchkeyError

CLAIM_GRANT = "urn:latchkey:agent-auth:grant-type:claim"
JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer"


def _user_agent(name: str) -> str:
    return f"latchkey-sdk-python ({''.join(c if 32 <= ord(c) < 127 else '?' for c in name)})"


def _body(claim_email: str, scope: Optional[str]) -> Dict[str, Any]:
    return {"type": "service_auth", "login_hint": claim_email, **({"scope": scope} if scope else {})}


class _Tokens:
    """The claimed agent's access token and when to re-mint it: a tenth of its lifetime (at most
    a minute) before expiry, so a request in flight never carries a token that expires on the way."""

    def __init__(self, answer: Dict[str, Any]) -> None:
        self.assertion = answer["identity_assertion"]
        self.update(answer)

    def update(self, answer: Dict[str, Any]) -> None:
        self.access_token = answer["access_token"]
        lifetime = float(answer["expires_in"])
        self.refresh_at = time.monotonic() + lifetime - min(60.0, lifetime / 10)

    def due(self) -> bool:
        return time.monotonic() >= self.refresh_at


class Registration:
    def __init__(self, cls: Any, base_url: str, user_agent: str, answer: Dict[str, Any]) -> None:
        self._cls, self._base_url, self._user_agent = cls, base_url, user_agent
        self.registration_id: str = answer["registration_id"]
        self._claim_token: str = answer["claim_token"]
        claim = answer["claim"]
        #: The code the person types on the console.
        self.user_code: str = claim["user_code"]
        #: The console page where they type it.
        self.verification_uri: str = claim["verification_uri"]
        self.interval: float = claim["interval"]
        self.expires_in: float = claim["expires_in"]

    def claim(self, sleep: Callable[[float], None] = time.sleep) -> Any:
        """Polls until the person claimed the agent; returns a Latchkey acting for that account."""
        http = httpx.Client(follow_redirects=False, timeout=30.0)
        interval, give_up = float(self.interval), time.monotonic() + float(self.expires_in)
        while True:
            sleep(interval)
            try:
                answer = _token(http.post(f"{self._base_url}/oauth2/token", data={"grant_type": CLAIM_GRANT, "claim_token": self._claim_token}, headers={"user-agent": self._user_agent}))
                break
            except LatchkeyError as error:
                if error.code == "slow_down":
                    interval += 5
                elif error.code != "authorization_pending" or time.monotonic() > give_up:
                    http.close()
                    raise
        tokens = _Tokens(answer)
        base_url, user_agent = self._base_url, self._user_agent

        class Credentials:
            def headers(self) -> Dict[str, str]:
                if tokens.due():
                    self.remint()
                return {"authorization": f"Bearer {tokens.access_token}", "user-agent": user_agent}

            def remint(self) -> None:
                tokens.update(_token(http.post(f"{base_url}/oauth2/token", data={"grant_type": JWT_BEARER, "assertion": tokens.assertion}, headers={"user-agent": user_agent})))

        return self._cls(base_url=base_url, _credentials=Credentials())


class AsyncRegistration(Registration):
    async def claim(self, sleep: Callable[[float], Any] = asyncio.sleep) -> Any:  # type: ignore[override]
        """Polls until the person claimed the agent; returns an AsyncLatchkey for that account."""
        http = httpx.AsyncClient(follow_redirects=False, timeout=30.0)
        interval, give_up = float(self.interval), time.monotonic() + float(self.expires_in)
        while True:
            await sleep(interval)
            try:
                answer = _token(await http.post(f"{self._base_url}/oauth2/token", data={"grant_type": CLAIM_GRANT, "claim_token": self._claim_token}, headers={"user-agent": self._user_agent}))
                break
            except LatchkeyError as error:
                if error.code == "slow_down":
                    interval += 5
                elif error.code != "authorization_pending" or time.monotonic() > give_up:
                    await http.aclose()
                    raise
        tokens = _Tokens(answer)
        base_url, user_agent = self._base_url, self._user_agent

        class Credentials:
            async def headers(self) -> Dict[str, str]:
                if tokens.due():
                    await self.remint()
                return {"authorization": f"Bearer {tokens.access_token}", "user-agent": user_agent}

            async def remint(self) -> None:
                tokens.update(_token(await http.post(f"{base_url}/oauth2/token", data={"grant_type": JWT_BEARER, "assertion": tokens.assertion}, headers={"user-agent": user_agent})))

        return self._cls(base_url=base_url, _credentials=Credentials())


def _token(response: httpx.Response) -> Dict[str, Any]:
    answer = _http.parse(response)
    if not isinstance(answer, dict) or "access_token" not in answer:
        raise LatchkeyError("The token answer carried no access token", status=response.status_code, code="invalid_response")
    return answer


def register(cls: Any, *, claim_email: str, name: str, base_url: Optional[str], scope: Optional[str]) -> Registration:
    url = _http.base_url_from(base_url)
    agent = _user_agent(name)
    with httpx.Client(follow_redirects=False, timeout=30.0) as http:
        answer = _http.parse(http.post(f"{url}/agent/identity", json=_body(claim_email, scope), headers={"user-agent": agent}))
    return Registration(cls, url, agent, answer)


async def register_async(cls: Any, *, claim_email: str, name: str, base_url: Optional[str], scope: Optional[str]) -> AsyncRegistration:
    url = _http.base_url_from(base_url)
    agent = _user_agent(name)
    async with httpx.AsyncClient(follow_redirects=False, timeout=30.0) as http:
        answer = _http.parse(await http.post(f"{url}/agent/identity", json=_body(claim_email, scope), headers={"user-agent": agent}))
    return AsyncRegistration(cls, url, agent, answer)
