import { Latchkey } from '@latchkey/sdk';

const latchkey = new Latchkey(); // SERVICE_API_KEY and LATCHKEY_BASE_URL from the environment
const session = await latchkey.provision({ target: 'example.com' });
console.log('enter this number in the app:', session.number);

// Here the app under test would text its code; a synthetic SMS takes the carrier's path instead.
const sms = await fetch(`${latchkey.baseUrl}/v1/synthetic/sms`, {
  method: 'POST',
  headers: { 'x-api-key': process.env.SERVICE_API_KEY ?? '', 'content-type': 'application/json' },
  body: JSON.stringify({
    to: session.number,
    from: '+15550001234',
    body: 'Your example.com code is 246810',
  }),
});
if (sms.status !== 201) throw new Error(`synthetic SMS refused: ${sms.status}`);

const verdict = await latchkey.waitForVerdict(session.session_id, { timeout: 30 });
console.log('code:', verdict.otp_code);
await latchkey.closeSession(session.session_id);
