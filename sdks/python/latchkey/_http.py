"""What the sync and async clients share: settings from arguments or the environment, the
credential headers, and turning an answer into data or a LatchkeyError. Redirects are never
followed: an API key in x-api-key would otherwise travel wherever a redirect points."""
import os
import sys
import uuid
from typing import Any, Dict, Optional
from urllib.parse import urlsplit

import httpx

from ._errors import LatchkeyError

DEFAULT_BASE_URL = "https://api.latchkey.dev"
#: The longest wait the service holds one request for (POST /v1/sessions/{id}/wait timeout).
SERVER_WAIT_LIMIT = 300.0
_warned = set()


def base_url_from(base_url: Optional[str]) -> str:
    url = (base_url or os.environ.get("LATCHKEY_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
    parts = urlsplit(url)
    origin = f"{parts.scheme}://{parts.netloc}"
    if parts.scheme != "https" and parts.hostname not in ("localhost", "127.0.0.1", "::1") and origin not in _warned:
        _warned.add(origin)
        # Said once per origin and without the credential.
        print(f"latchkey: {origin} is not https; credentials will cross the network unencrypted", file=sys.stderr)
    return url


def static_headers(api_key: Optional[str], access_token: Optional[str]) -> Dict[str, str]:
    key = api_key or (None if access_token else os.environ.get("SERVICE_API_KEY") or None)
    if key:
        return {"x-api-key": key}
    if access_token:
        return {"authorization": f"Bearer {access_token}"}
    raise TypeError("Latchkey needs api_key or access_token (or SERVICE_API_KEY in the environment)")


def idempotency_key() -> str:
    return str(uuid.uuid4())


def retry_delay(response: httpx.Response, max_retry_after: float) -> Optional[float]:
    """Seconds to wait before retrying a 429, or None when it should be raised."""
    try:
        seconds = float(response.headers.get("retry-after", "1"))
    except ValueError:
        return None
    return max(0.0, seconds) if seconds <= max_retry_after else None


def parse(response: httpx.Response) -> Any:
    if 300 <= response.status_code < 400:
        raise LatchkeyError(
            f"Latchkey answered a redirect ({response.status_code}); the SDK does not follow redirects with credentials. Check the base URL.",
            status=response.status_code,
            code="unexpected_redirect",
        )
    try:
        body = response.json() if response.content else None
    except ValueError:
        body = None
    if response.is_success:
        return body
    body = body if isinstance(body, dict) else {}
    code = body.get("code") or body.get("error") or "http_error"
    detail = body.get("detail") or body.get("error_description")
    retry_after = response.headers.get("retry-after")
    raise LatchkeyError(
        f"Latchkey answered {response.status_code} {code}" + (f": {detail}" if detail else ""),
        status=response.status_code,
        code=code,
        retry_after=float(retry_after) if retry_after is not None else None,
        detail=detail,
    )


def network_error(url: str, error: Exception) -> LatchkeyError:
    return LatchkeyError(f"Could not reach Latchkey at {url}: {error}", status=0, code="network_error")
