/**
 * Issue 13: the Python SDK (sdks/python) tested with pytest against the real service, started here
 * in-process on the embedded database. pytest gets the URL, API keys of fresh accounts, a verified
 * and signed-in person (for the claim through the console) and webhook signatures made by the
 * stock standardwebhooks library; this test passes when every pytest test does, and reports
 * pytest's counts.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { email, person } from '../auth/support.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';
import { ensureVenv, run, venvBin } from './python-venv.ts';

let t: TestApp;
let scratch: string;
beforeAll(async () => {
  [t] = await Promise.all([
    startTestApp({
      env: {
        WEBHOOK_ALLOW_PRIVATE: 'true',
        FREE_TIER_MONTHLY_SESSIONS: '10000',
        ACCESS_TOKEN_TTL: '2',
        CLAIM_POLL_INTERVAL: '1',
      },
    }),
    ensureVenv(),
  ]);
  scratch = await mkdtemp(path.join(tmpdir(), 'latchkey-py-'));
}, 240_000);
afterAll(async () => {
  await t?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

async function webhookFixture() {
  const secret = `whsec_${Buffer.from('a webhook secret of 32 bytes....').toString('base64')}`;
  const other = `whsec_${Buffer.from('another secret of 32 bytes......').toString('base64')}`;
  const body = JSON.stringify({ type: 'session.verdict', data: { otp_code: '123456' } });
  const at = new Date();
  const file = path.join(scratch, 'webhook.json');
  await writeFile(
    file,
    JSON.stringify({
      secret,
      other_secret: other,
      body,
      signed_at: Math.floor(at.getTime() / 1000),
      headers: {
        'webhook-id': 'msg_py_test',
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(secret).sign('msg_py_test', at, body),
      },
    }),
  );
  return file;
}

test('every pytest test of the Python SDK passes against the running service', async () => {
  const owner = email('py-owner');
  const signedIn = await person(t, owner);
  const fresh: string[] = [];
  for (let i = 0; i < 5; i++) fresh.push(await apiKey(t, await newAccount(t)));
  const result = await run(
    venvBin('pytest'),
    ['-q', '-p', 'no:cacheprovider', 'sdks/python/tests'],
    {
      LATCHKEY_BASE_URL: t.baseUrl,
      SERVICE_API_KEY: await apiKey(t, await newAccount(t)),
      LATCHKEY_TEST_FRESH_KEYS: fresh.join(','),
      LATCHKEY_TEST_PERSON_EMAIL: owner,
      LATCHKEY_TEST_PERSON_COOKIE: signedIn.cookieHeader,
      LATCHKEY_TEST_WEBHOOK_FIXTURE: await webhookFixture(),
    },
  );
  const summary = /(\d+) passed/.exec(result.output);
  console.log(`python sdk: ${result.output.trim().split('\n').at(-1)}`);
  expect(result.code, result.output.slice(-6000)).toBe(0);
  // pytest exits 5 when it collects nothing; a run that passed must have run the tests.
  expect(Number(summary?.[1])).toBeGreaterThanOrEqual(20);
}, 240_000);
