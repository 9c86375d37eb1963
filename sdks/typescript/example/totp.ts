import { Latchkey } from '@latchkey/sdk';

const latchkey = new Latchkey(); // SERVICE_API_KEY and LATCHKEY_BASE_URL from the environment

// Once, by the customer: the otpauth:// URI behind the app's QR code (sealed, never shown again).
await latchkey.authenticators.create({
  target: 'app.example.com',
  otpauth_uri:
    'otpauth://totp/Example:agent@example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DP&issuer=Example',
});

// By the agent, at the app's "enter the code from your authenticator app" step.
const session = await latchkey.openChallenge({
  channel: 'totp',
  target: 'https://app.example.com/login',
});
const verdict = await latchkey.waitForVerdict(session.session_id, { timeout: 60 });
console.log('code:', verdict.otp_code, 'valid until:', verdict.valid_until);
await latchkey.closeSession(session.session_id);
