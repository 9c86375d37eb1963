"""register() → the person claims on the real console claim page → claim() returns a client that
works, and keeps working after its first access token expired (ACCESS_TOKEN_TTL is 2 s here): it
re-minted with the jwt-bearer grant."""
import re
import time

import httpx

from latchkey import AsyncLatchkey, Latchkey


def _claim_on_console(registration, person) -> None:
    with httpx.Client(headers={"cookie": person["cookie"]}, follow_redirects=False) as browser:
        page = browser.get(registration.verification_uri)
        assert page.status_code == 200, page.text
        csrf = re.search(r'name="_csrf" value="([^"]+)"', page.text).group(1)
        attempt = re.search(r"claim_attempt_token=([^&]+)", registration.verification_uri).group(1)
        base = registration.verification_uri.split("/console/")[0]
        done = browser.post(
            f"{base}/console/claim",
            data={"_csrf": csrf, "claim_attempt_token": attempt, "code": registration.user_code},
        )
        assert done.status_code == 200, done.text


def test_register_claim_and_re_mint(base_url, person):
    registration = Latchkey.register(claim_email=person["email"], name="py agent", base_url=base_url)
    assert registration.user_code and registration.verification_uri.startswith(base_url)
    _claim_on_console(registration, person)
    client = registration.claim()
    first = client.open_challenge(channel="email_otp")
    token = client._credentials.headers()["authorization"]
    time.sleep(2.5)  # the service's clock: its first token has now expired
    assert client.get_session(first["session_id"])["state"] == "active"
    assert client._credentials.headers()["authorization"] != token


async def test_async_register_and_claim(base_url, person):
    registration = await AsyncLatchkey.register(claim_email=person["email"], name="py async agent", base_url=base_url)
    _claim_on_console(registration, person)
    client = await registration.claim()
    assert (await client.open_challenge(channel="email_otp"))["state"] == "active"
