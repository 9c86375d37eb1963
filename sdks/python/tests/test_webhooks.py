"""verify_webhook against a delivery signed by the stock standardwebhooks library (the fixture is
made by test/sdks/python-sdk.test.ts with the TypeScript library, not typed in by hand)."""
import json

import pytest

from latchkey import LatchkeyError, verify_webhook


def test_accepts_a_delivery_signed_by_standardwebhooks(webhook_fixture):
    f = webhook_fixture
    assert verify_webhook(f["body"], f["headers"], f["secret"], now=f["signed_at"]) == json.loads(f["body"])
    assert verify_webhook(f["body"].encode(), f["headers"], f["secret"], now=f["signed_at"]) == json.loads(f["body"])


@pytest.mark.parametrize("change", ["body", "secret", "old", "missing"])
def test_refuses_altered_body_wrong_secret_old_timestamp_and_missing_headers(webhook_fixture, change):
    f = dict(webhook_fixture)
    body, headers, secret, now = f["body"], dict(f["headers"]), f["secret"], f["signed_at"]
    if change == "body":
        body = body.replace("123456", "654321")
    elif change == "secret":
        secret = f["other_secret"]
    elif change == "old":
        now = now + 6 * 60
    else:
        headers.pop("webhook-signature")
    with pytest.raises(LatchkeyError) as caught:
        verify_webhook(body, headers, secret, now=now)
    assert caught.value.code == "webhook_verification_failed"
