import os

import httpx

from latchkey import Latchkey

latchkey = Latchkey()  # SERVICE_API_KEY and LATCHKEY_BASE_URL from the environment
session = latchkey.provision(target="example.com")
print("enter this number in the app:", session["number"])

# Here the app under test would text its code; a synthetic SMS takes the carrier's path instead.
httpx.post(
    f"{latchkey.base_url}/v1/synthetic/sms",
    headers={"x-api-key": os.environ["SERVICE_API_KEY"]},
    json={"to": session["number"], "from": "+15550001234", "body": "Your example.com code is 246810"},
).raise_for_status()

verdict = latchkey.wait_for_verdict(session["session_id"], timeout=30)
print("code:", verdict["otp_code"])
latchkey.close_session(session["session_id"])
