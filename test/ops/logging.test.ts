/** Logs are structured JSON and never carry passwords, cookies, tokens or query strings. */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { FormClient } from '../helpers/form.ts';

const lines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ logLines: lines });
});
afterAll(() => t?.stop());

test('a sign-up, a sign-in and a request with a token in its query leave no secret in the logs', async () => {
  const password = 'this password must never be logged';
  const client = new FormClient(t.baseUrl);
  await client.submit('/console/signup', '/console/signup', {
    email: 'logs@example.test',
    password,
  });
  await client.submit('/console/login', '/console/login', {
    email: 'logs@example.test',
    password: 'wrong one, also secret',
  });
  await fetch(`${t.baseUrl}/console/login?claim_attempt_token=cla_secretvalue123`, {
    headers: {
      authorization: 'Bearer agt_secret_bearer_value',
      'x-api-key': 'lk_live_secret_key_value',
    },
  });

  expect(lines.length).toBeGreaterThan(5);
  for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
  const all = lines.join('\n');
  const sessionCookie = client.cookieHeader.match(/lk_session=([^;]+)/)?.[1];
  expect(sessionCookie).toBeDefined();
  for (const secret of [
    password,
    'wrong one, also secret',
    'cla_secretvalue123',
    'agt_secret_bearer_value',
    'lk_live_secret_key_value',
    sessionCookie!,
  ]) {
    expect(all).not.toContain(secret);
  }
  expect(all).toContain('"path":"/console/login"');
});
