"""The Python SDK's tests run against a live Latchkey that test/sdks/python-sdk.test.ts starts on
the embedded database; it passes the service URL, API keys of fresh accounts, a signed-in person
for the claim and webhook signatures made by the stock standardwebhooks library, in the
environment."""
import json
import os
from typing import Any, Dict, List

import httpx
import pytest


def _need(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        raise RuntimeError(f"{name} is not set: run these tests through test/sdks/python-sdk.test.ts")
    return value


@pytest.fixture(scope="session")
def base_url() -> str:
    return _need("LATCHKEY_BASE_URL")


@pytest.fixture(scope="session")
def api_key() -> str:
    return _need("SERVICE_API_KEY")


@pytest.fixture(scope="session")
def fresh_keys() -> List[str]:
    """API keys of accounts that nothing else uses (usage counts, paging, limits)."""
    return _need("LATCHKEY_TEST_FRESH_KEYS").split(",")


@pytest.fixture(scope="session")
def person() -> Dict[str, str]:
    return {"email": _need("LATCHKEY_TEST_PERSON_EMAIL"), "cookie": _need("LATCHKEY_TEST_PERSON_COOKIE")}


@pytest.fixture(scope="session")
def webhook_fixture() -> Dict[str, Any]:
    with open(_need("LATCHKEY_TEST_WEBHOOK_FIXTURE")) as file:
        return json.load(file)


@pytest.fixture
def send_sms(base_url: str, api_key: str):
    def send(to: str, body: str, key: str = "") -> None:
        response = httpx.post(
            f"{base_url}/v1/synthetic/sms",
            headers={"x-api-key": key or api_key},
            json={"to": to, "from": "+15550009999", "body": body},
        )
        assert response.status_code == 201, response.text

    return send


@pytest.fixture(scope="session")
def send_mail():
    """Sends an email to the service over SMTP through the harness (nodemailer; DKIM-signed for
    dkim="acme.example"), as the app under test or a forger would."""
    url = _need("LATCHKEY_TEST_MAILER_URL")

    def send(**mail: Any) -> None:
        response = httpx.post(url, json=mail)
        assert response.status_code == 204, response.text

    return send
