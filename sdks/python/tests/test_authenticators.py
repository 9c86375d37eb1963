"""Issue 20 in the Python SDK against the live service: authenticators.list/create/delete, a totp
session's code equal to RFC 6238's for the same secret, and the README's TOTP snippet
(examples/totp.py) run as written. The harness moves the service's injected clock to the start of
a time step, so no wait holds for a real step to pass."""
import base64
import hashlib
import hmac
import os
import pathlib
import struct
import subprocess
import sys
from datetime import datetime

import pytest

from latchkey import AsyncLatchkey, Latchkey, LatchkeyError

ROOT = pathlib.Path(__file__).resolve().parent.parent
SECRET = "KRSXG5CTMVRXEZLUKN2XAZLSKNSWG4TF"
URI = f"otpauth://totp/Acme:agent@acme.example?secret={SECRET}&issuer=Acme"


def rfc6238(secret: str, unix_seconds: float, digits: int = 6, period: int = 30) -> str:
    """RFC 6238 (SHA1) as the RFC writes it: the test's own oracle, independent of the service."""
    counter = struct.pack(">Q", int(unix_seconds // period))
    digest = hmac.new(base64.b32decode(secret), counter, hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return str(value % 10**digits).zfill(digits)


def at(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


def test_authenticators_create_list_delete_never_return_the_secret(base_url, fresh_keys):
    client = Latchkey(api_key=fresh_keys[5], base_url=base_url)
    created = client.authenticators.create("acme.example", URI)
    assert created["id"].startswith("aut_")
    assert (created["target"], created["label"], created["issuer"]) == ("acme.example", "agent@acme.example", "Acme")
    assert (created["digits"], created["period"], created["algorithm"]) == (6, 30, "SHA1")
    other = client.authenticators.create("other.example", secret=SECRET, digits=8, algorithm="SHA256")
    listed = client.authenticators.list()
    assert [a["id"] for a in listed] == [created["id"], other["id"]]
    assert SECRET not in repr(created) + repr(listed)
    client.authenticators.delete(created["id"])
    assert [a["id"] for a in client.authenticators.list()] == [other["id"]]


def test_a_bad_enrolment_is_400_invalid_request_naming_the_field_and_stores_nothing(base_url, fresh_keys):
    client = Latchkey(api_key=fresh_keys[6], base_url=base_url)
    with pytest.raises(LatchkeyError) as caught:
        client.authenticators.create("acme.example", "otpauth://hotp/x?secret=AAAA")
    assert (caught.value.status, caught.value.code) == (400, "invalid_request")
    assert "otpauth_uri" in str(caught.value.detail)
    assert client.authenticators.list() == []
    with pytest.raises(LatchkeyError) as caught:
        client.open_challenge(channel="totp", target="https://acme.example/login")
    assert (caught.value.status, caught.value.code) == (422, "no_authenticator")


def test_a_totp_session_answers_the_rfc_6238_code_of_its_step_and_never_the_same_code_twice(base_url, fresh_keys):
    client = Latchkey(api_key=fresh_keys[7], base_url=base_url)
    stored = client.authenticators.create("acme.example", URI)
    session = client.open_challenge(channel="totp", target="https://acme.example/login")
    assert session["channel"] == "totp" and session["authenticator_id"] == stored["id"]
    verdict = client.wait_for_verdict(session["session_id"], timeout=60)
    assert verdict["verdict"] == "otp_code"
    # valid_until ends the step the code belongs to.
    assert verdict["otp_code"] == rfc6238(SECRET, at(verdict["valid_until"]) - 1)
    assert at(verdict["valid_until"]) - at(verdict["received_at"]) >= 5
    second = client.open_challenge(channel="totp", authenticator_id=stored["id"])
    assert second["authenticator_id"] == stored["id"]
    # The harness's clock: the second wait holds for the next step on it, without sleeping 30 s.
    later = client.wait_for_verdict(second["session_id"], timeout=60)
    assert later["otp_code"] == rfc6238(SECRET, at(later["valid_until"]) - 1)
    assert at(later["valid_until"]) > at(verdict["valid_until"])


async def test_async_authenticators_and_a_totp_wait(base_url, fresh_keys):
    async with AsyncLatchkey(api_key=fresh_keys[8], base_url=base_url) as client:
        stored = await client.authenticators.create("async.example", secret=SECRET)
        assert [a["id"] for a in await client.authenticators.list()] == [stored["id"]]
        session = await client.open_challenge(channel="totp", authenticator_id=stored["id"])
        verdict = await client.wait_for_verdict(session["session_id"], timeout=60)
        assert verdict["otp_code"] == rfc6238(SECRET, at(verdict["valid_until"]) - 1)
        await client.authenticators.delete(stored["id"])
        assert await client.authenticators.list() == []


def test_the_readme_totp_snippet_is_the_example_and_prints_the_code(base_url, fresh_keys):
    example = (ROOT / "examples" / "totp.py").read_text()
    for readme in (ROOT.parent.parent / "README.md", ROOT / "README.md"):
        assert f"```python\n{example}```" in readme.read_text()
    env = {**os.environ, "SERVICE_API_KEY": fresh_keys[9], "LATCHKEY_BASE_URL": base_url}
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "totp.py")], env=env, capture_output=True, text=True, timeout=90
    )
    assert done.returncode == 0, done.stderr
    code, valid_until = done.stdout.strip().removeprefix("code: ").split(" valid until: ")
    assert code == rfc6238("JBSWY3DPEHPK3PXPJBSWY3DP", at(valid_until) - 1)
