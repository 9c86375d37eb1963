from latchkey import Latchkey

latchkey = Latchkey()  # SERVICE_API_KEY and LATCHKEY_BASE_URL from the environment

# Once, by the customer: the otpauth:// URI behind the app's QR code (sealed, never shown again).
latchkey.authenticators.create(
    target="app.example.com",
    otpauth_uri="otpauth://totp/Example:agent@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DP&issuer=Example",
)

# By the agent, at the app's "enter the code from your authenticator app" step.
session = latchkey.open_challenge(channel="totp", target="https://app.example.com/login")
verdict = latchkey.wait_for_verdict(session["session_id"], timeout=60)
print("code:", verdict["otp_code"], "valid until:", verdict["valid_until"])
latchkey.close_session(session["session_id"])
