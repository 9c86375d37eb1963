"""Latchkey (sync) against the live service: every method and alias, timeouts, chained waits,
paging, 401/403/429, idempotent opens, redirects and credentials from the environment."""
import http.server
import threading
from typing import List

import httpx
import pytest

from latchkey import Latchkey, LatchkeyError, OtpTimeoutError


@pytest.fixture
def client(base_url: str, api_key: str) -> Latchkey:
    return Latchkey(api_key=api_key, base_url=base_url)


def test_provision_opens_sms_and_wait_for_verdict_returns_the_code(client, send_sms):
    session = client.provision(target="example.com")
    assert session["channel"] == "sms_otp" and session["target"] == "example.com"
    send_sms(session["number"], "Your example.com code is 482913")
    verdict = client.wait_for_verdict(session["session_id"], timeout=10)
    assert verdict["verdict"] == "otp_code" and verdict["otp_code"] == "482913"


def test_wait_for_otp_is_the_same_wait_and_open_challenge_opens_the_channel_asked_for(client, send_sms):
    email = client.open_challenge(channel="email_otp")
    assert email["channel"] == "email_otp" and "@" in email["inbox_address"]
    sms = client.open_challenge()
    send_sms(sms["number"], "Code: 771204")
    assert client.wait_for_otp(sms["session_id"], timeout=10)["otp_code"] == "771204"


def test_get_session_messages_reroute_and_close(client, send_sms):
    session = client.provision()
    assert client.get_session(session["session_id"])["session_id"] == session["session_id"]
    send_sms(session["number"], "Your code is 130577")
    messages = client.get_messages(session["session_id"])
    assert [m["parsed"]["otp_code"] for m in messages] == ["130577"]
    moved = client.reroute(session["session_id"])
    assert moved["previous_number"] == session["number"] and moved["number"] != session["number"]
    assert client.close_session(session["session_id"])["status"] == "completed"
    assert client.get_session(session["session_id"])["state"] == "completed"


def test_a_wait_without_a_verdict_raises_otp_timeout_error(client):
    session = client.provision()
    with pytest.raises(OtpTimeoutError) as caught:
        client.wait_for_verdict(session["session_id"], timeout=0)
    assert caught.value.session_id == session["session_id"]
    assert caught.value.next_step and caught.value.rerouted is None
    assert client.get_session(session["session_id"])["number"] == session["number"]


def test_auto_reroute_moves_a_timed_out_sms_session_to_a_new_number(client):
    session = client.provision()
    with pytest.raises(OtpTimeoutError) as caught:
        client.wait_for_otp(session["session_id"], timeout=0, auto_reroute=True)
    rerouted = caught.value.rerouted
    assert rerouted["status"] == "carrier_retry_required"
    assert rerouted["previous_number"] == session["number"]
    assert client.get_session(session["session_id"])["number"] == rerouted["new_number"] != session["number"]


def test_a_wait_longer_than_the_service_limit_is_chained(base_url, api_key):
    waits: List[float] = []

    def observe(request: httpx.Request) -> None:
        if request.url.path.endswith("/wait"):
            waits.append(float(request.content.decode().split(":")[1].rstrip("}")))

    observed = httpx.Client(event_hooks={"request": [observe]})
    # _wait_limit stands for the service's 300 s so the chain is seen in a couple of seconds.
    chained = Latchkey(api_key=api_key, base_url=base_url, http_client=observed, _wait_limit=1)
    session = chained.provision()
    with pytest.raises(OtpTimeoutError):
        chained.wait_for_verdict(session["session_id"], timeout=2.5)
    assert len(waits) >= 3 and all(w <= 1 for w in waits)


def test_list_sessions_iterates_every_page(base_url, fresh_keys):
    own = Latchkey(api_key=fresh_keys[0], base_url=base_url)
    opened = [own.open_challenge(channel="email_otp")["session_id"] for _ in range(5)]
    assert [s["session_id"] for s in own.list_sessions(page_size=2)] == opened


def test_usage_and_usage_summary_report_the_billed_session(base_url, fresh_keys):
    own = Latchkey(api_key=fresh_keys[1], base_url=base_url)
    session = own.open_challenge(channel="email_otp")
    assert [u["session_id"] for u in own.usage()["usage"]] == [session["session_id"]]
    assert own.usage_summary()["sessions_used"] == 1


def test_api_keys_create_list_and_delete(client, base_url):
    created = client.api_keys.create(name="py made", scopes=["sessions:read"])
    assert created["key"].startswith("lk_")
    assert created["id"] in [k["id"] for k in client.api_keys.list()]
    client.api_keys.delete(created["id"])
    assert created["id"] not in [k["id"] for k in client.api_keys.list()]
    with pytest.raises(LatchkeyError) as caught:
        Latchkey(api_key=created["key"], base_url=base_url).get_session("x")
    assert (caught.value.status, caught.value.code) == (401, "unauthenticated")


def test_webhooks_create_list_and_delete(client):
    created = client.webhooks.create(url="http://127.0.0.1:9/hook")
    assert created["secret"].startswith("whsec_")
    assert created["id"] in [w["id"] for w in client.webhooks.list()]
    client.webhooks.delete(created["id"])
    assert created["id"] not in [w["id"] for w in client.webhooks.list()]


def test_wrong_key_is_401_and_missing_scope_is_403(client, base_url):
    with pytest.raises(LatchkeyError) as caught:
        Latchkey(api_key="lk_not_a_key", base_url=base_url).open_challenge()
    assert (caught.value.status, caught.value.code) == (401, "unauthenticated")
    reader = client.api_keys.create(name="reader", scopes=["sessions:read"])
    with pytest.raises(LatchkeyError) as caught:
        Latchkey(api_key=reader["key"], base_url=base_url).open_challenge()
    assert (caught.value.status, caught.value.code) == (403, "insufficient_scope")


def test_a_429_is_retried_after_retry_after_and_surfaces_without_retries(base_url, fresh_keys):
    full = Latchkey(api_key=fresh_keys[2], base_url=base_url, max_retries=0)
    held = [full.open_challenge(channel="email_otp")["session_id"] for _ in range(50)]
    with pytest.raises(LatchkeyError) as caught:
        full.open_challenge(channel="email_otp")
    assert (caught.value.status, caught.value.code) == (429, "session_limit_reached")
    assert caught.value.retry_after and caught.value.retry_after > 0
    pauses: List[float] = []

    def pause(seconds: float) -> None:
        # Stands for the Retry-After wait; meanwhile a session is closed so the retry fits.
        pauses.append(seconds)
        full.close_session(held.pop())

    patient = Latchkey(api_key=fresh_keys[2], base_url=base_url, max_retry_after=3600, sleep=pause)
    assert patient.open_challenge(channel="email_otp")["state"] == "active"
    # Retry-After counts down to the soonest expiry, so the second 429 may ask a second less.
    assert len(pauses) == 1 and 0 < pauses[0] <= caught.value.retry_after


def test_an_open_whose_answer_is_lost_is_retried_with_the_same_key_and_billed_once(base_url, fresh_keys):
    keys: List[str] = []

    class Lossy(httpx.HTTPTransport):
        lost = False

        def handle_request(self, request: httpx.Request) -> httpx.Response:
            response = super().handle_request(request)
            if request.method == "POST":
                keys.append(request.headers["idempotency-key"])
                if not Lossy.lost:
                    Lossy.lost = True
                    response.read()
                    raise httpx.ReadError("the answer was lost on the way back", request=request)
            return response

    own = Latchkey(api_key=fresh_keys[3], base_url=base_url, http_client=httpx.Client(transport=Lossy()))
    session = own.open_challenge(channel="email_otp")
    assert len(keys) == 2 and keys[0] == keys[1]
    assert [u["session_id"] for u in own.usage()["usage"]] == [session["session_id"]]


def test_a_redirect_is_not_followed_so_the_key_never_reaches_another_host(api_key):
    seen: List[str] = []

    class Elsewhere(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            seen.append(self.headers.get("x-api-key", ""))
            self.send_response(201)
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    elsewhere = http.server.HTTPServer(("127.0.0.1", 0), Elsewhere)

    class Redirector(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.send_response(307)
            self.send_header("location", f"http://127.0.0.1:{elsewhere.server_port}{self.path}")
            self.end_headers()

        def log_message(self, *args) -> None:
            pass

    redirector = http.server.HTTPServer(("127.0.0.1", 0), Redirector)
    for server in (elsewhere, redirector):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        misled = Latchkey(api_key=api_key, base_url=f"http://127.0.0.1:{redirector.server_port}")
        with pytest.raises(LatchkeyError) as caught:
            misled.open_challenge()
        assert (caught.value.status, caught.value.code) == (307, "unexpected_redirect")
        assert seen == []
    finally:
        elsewhere.shutdown()
        redirector.shutdown()


def test_with_no_arguments_key_and_base_url_come_from_the_environment(base_url, monkeypatch):
    client = Latchkey()
    assert client.base_url == base_url
    assert client.open_challenge(channel="email_otp")["state"] == "active"
    monkeypatch.delenv("SERVICE_API_KEY")
    with pytest.raises(TypeError, match="SERVICE_API_KEY"):
        Latchkey()


def test_plain_http_off_loopback_is_warned_once_without_the_key(capsys):
    Latchkey(api_key="lk_secret_value", base_url="http://latchkey.example.test")
    Latchkey(api_key="lk_secret_value", base_url="http://latchkey.example.test")
    err = capsys.readouterr().err
    assert err.count("not https") == 1 and "lk_secret_value" not in err
