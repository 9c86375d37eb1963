"""AsyncLatchkey against the live service: the same methods as the sync client, awaited."""
import pytest

from latchkey import AsyncLatchkey, LatchkeyError, OtpTimeoutError


async def test_async_provision_wait_messages_reroute_and_close(base_url, api_key, send_sms):
    async with AsyncLatchkey(api_key=api_key, base_url=base_url) as client:
        session = await client.provision()
        send_sms(session["number"], "Your code is 904211")
        assert (await client.wait_for_otp(session["session_id"], timeout=10))["otp_code"] == "904211"
        assert (await client.get_session(session["session_id"]))["state"] == "active"
        assert len(await client.get_messages(session["session_id"])) == 1
        moved = await client.reroute(session["session_id"])
        assert moved["previous_number"] == session["number"]
        assert (await client.close_session(session["session_id"]))["status"] == "completed"


async def test_async_timeout_auto_reroute_and_open_challenge(base_url, api_key):
    async with AsyncLatchkey(api_key=api_key, base_url=base_url) as client:
        email = await client.open_challenge(channel="magic_link")
        with pytest.raises(OtpTimeoutError) as caught:
            await client.wait_for_verdict(email["session_id"], timeout=0)
        assert caught.value.rerouted is None
        sms = await client.provision()
        with pytest.raises(OtpTimeoutError) as caught:
            await client.wait_for_otp(sms["session_id"], timeout=0, auto_reroute=True)
        assert caught.value.rerouted["previous_number"] == sms["number"]


async def test_async_paging_usage_keys_webhooks_and_errors(base_url, api_key, fresh_keys):
    async with AsyncLatchkey(api_key=fresh_keys[4], base_url=base_url) as own:
        opened = [(await own.open_challenge(channel="email_otp"))["session_id"] for _ in range(3)]
        assert [s["session_id"] async for s in own.list_sessions(page_size=2)] == opened
        assert len((await own.usage())["usage"]) == 3
        assert (await own.usage_summary())["sessions_used"] == 3
        key = await own.api_keys.create(name="async", scopes=["sessions:read"])
        assert key["id"] in [k["id"] for k in await own.api_keys.list()]
        await own.api_keys.delete(key["id"])
        hook = await own.webhooks.create(url="http://127.0.0.1:9/hook")
        assert hook["id"] in [w["id"] for w in await own.webhooks.list()]
        await own.webhooks.delete(hook["id"])
        assert await own.webhooks.list() == []
    async with AsyncLatchkey(api_key="lk_not_a_key", base_url=base_url) as wrong:
        with pytest.raises(LatchkeyError) as caught:
            await wrong.open_challenge()
        assert (caught.value.status, caught.value.code) == (401, "unauthenticated")
