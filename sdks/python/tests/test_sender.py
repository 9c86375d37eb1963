"""Issue 21 in the Python SDK against the live service: require_authenticated_sender on
open_challenge, with real mail over SMTP (DKIM-signed by the harness for acme.example, or forged)
checked against a real DNS server on loopback; the verdict and messages carry the sender."""
import pytest

from latchkey import AsyncLatchkey, Latchkey, LatchkeyError, Sender


def link_mail(url: str) -> dict:
    return {"subject": "Sign in to Acme", "text": f"Sign in: {url}", "html": f'<p><a href="{url}">Sign in</a></p>'}


def test_a_forged_link_is_stored_but_never_returned_and_the_genuine_one_is_with_its_sender(base_url, api_key, send_mail):
    client = Latchkey(api_key=api_key, base_url=base_url)
    session = client.open_challenge(
        channel="magic_link", target="https://acme.example/login", require_authenticated_sender=True
    )
    assert session["require_authenticated_sender"] is True
    inbox = session["inbox_address"]
    # The forger: its own envelope (SPF passes for evil.example), Acme's name in From, no signature.
    send_mail(
        to=inbox,
        envelope_from="bounce@evil.example",
        **{"from": "Acme <login@acme.example>"},
        **link_mail("https://acme-login.evil.example/verify?token=Rm9yZ2VkUHk"),
    )
    [forged] = client.get_messages(session["session_id"])
    assert forged["rejected"] == "sender_not_authenticated"
    assert forged["sender"]["authenticated"] is False and forged["sender"]["dkim"] == "none"
    send_mail(
        to=inbox,
        dkim="acme.example",
        **{"from": "Acme <login@acme.example>"},
        **link_mail("https://acme.example/verify?token=R2VudWluZVB5"),
    )
    verdict = client.wait_for_verdict(session["session_id"], timeout=20)
    assert verdict["magic_link"] == "https://acme.example/verify?token=R2VudWluZVB5"
    assert verdict["link_domain"] == "acme.example" and verdict["link_matches_target"] is True
    sender: Sender = verdict["sender"]
    assert sender == {
        "address": "login@acme.example",
        "domain": "acme.example",
        "authenticated": True,
        "spf": "pass",
        "dkim": "pass",
        "dmarc": "pass",
    }


async def test_async_open_challenge_passes_the_requirement_and_an_unauthenticated_code_is_refused(
    base_url, api_key, send_mail
):
    async with AsyncLatchkey(api_key=api_key, base_url=base_url) as client:
        session = await client.open_challenge(channel="email_otp", require_authenticated_sender=True)
        assert session["require_authenticated_sender"] is True
        send_mail(
            to=session["inbox_address"],
            envelope_from="bounce@evil.example",
            **{"from": "login@acme.example"},
            subject="Your code",
            text="Your verification code is 551904.",
        )
        [message] = await client.get_messages(session["session_id"])
        assert message["rejected"] == "sender_not_authenticated"
        send_mail(
            to=session["inbox_address"],
            dkim="acme.example",
            **{"from": "login@acme.example"},
            subject="Your code",
            text="Your verification code is 771935.",
        )
        verdict = await client.wait_for_verdict(session["session_id"], timeout=20)
        assert verdict["otp_code"] == "771935" and verdict["sender"]["authenticated"] is True


def test_without_the_requirement_the_verdict_says_its_sender_is_not_authenticated(base_url, api_key, send_mail):
    client = Latchkey(api_key=api_key, base_url=base_url)
    session = client.open_challenge(channel="email_otp")
    assert session["require_authenticated_sender"] is False
    send_mail(
        to=session["inbox_address"],
        envelope_from="bounce@evil.example",
        **{"from": "login@acme.example"},
        subject="Your code",
        text="Your verification code is 604213.",
    )
    verdict = client.wait_for_verdict(session["session_id"], timeout=10)
    assert verdict["otp_code"] == "604213"
    assert verdict["sender"]["authenticated"] is False and verdict["sender"]["dmarc"] == "fail"


def test_require_authenticated_sender_on_sms_is_400_invalid_request(base_url, api_key):
    client = Latchkey(api_key=api_key, base_url=base_url)
    with pytest.raises(LatchkeyError) as caught:
        client.provision(require_authenticated_sender=True)
    assert (caught.value.status, caught.value.code) == (400, "invalid_request")
