"""Verifies a webhook delivery as Standard Webhooks specifies: HMAC-SHA256 over
"{webhook-id}.{webhook-timestamp}.{body}" with the endpoint secret (whsec_ + base64), sent as
space-separated "v1,<base64>" entries; the timestamp must be within five minutes of now so a
captured delivery cannot be replayed later. Standard library only."""
import base64
import hashlib
import hmac
import json
import time
from typing import Any, Mapping, Optional, Union

from ._errors import LatchkeyError

TOLERANCE_SECONDS = 5 * 60


def _header(headers: Mapping[str, Any], name: str) -> Optional[str]:
    for key, value in headers.items():
        if key.lower() == name:
            return value[0] if isinstance(value, (list, tuple)) else str(value)
    return None


def _refuse(detail: str) -> LatchkeyError:
    return LatchkeyError(
        f"Webhook verification failed: {detail}",
        status=0,
        code="webhook_verification_failed",
        detail=detail,
    )


def verify_webhook(
    body: Union[str, bytes],
    headers: Mapping[str, Any],
    secret: str,
    now: Optional[float] = None,
) -> Any:
    """Returns the parsed payload of a genuine delivery; raises LatchkeyError with code
    webhook_verification_failed otherwise. Pass the raw body exactly as received."""
    msg_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise _refuse("missing webhook-id, webhook-timestamp or webhook-signature")
    if not timestamp.isdigit() or abs((now if now is not None else time.time()) - int(timestamp)) > TOLERANCE_SECONDS:
        raise _refuse("timestamp outside the 5 minute tolerance")
    key = base64.b64decode(secret[len("whsec_"):] if secret.startswith("whsec_") else secret)
    text = body.decode("utf-8") if isinstance(body, bytes) else body
    expected = hmac.new(key, f"{msg_id}.{timestamp}.{text}".encode("utf-8"), hashlib.sha256).digest()
    for entry in signatures.split(" "):
        version, _, signature = entry.partition(",")
        if version != "v1" or not signature:
            continue
        try:
            given = base64.b64decode(signature)
        except ValueError:
            continue
        if hmac.compare_digest(given, expected):
            return json.loads(text)
    raise _refuse("no matching signature")
