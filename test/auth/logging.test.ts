/** The agent-auth flows leave no token, code, claim token, assertion or key in the logs. */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import {
  attemptToken,
  bearer,
  claimedAgent,
  email,
  jwtBearer,
  postForm,
  postJson,
  token,
} from './support.ts';

const lines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ logLines: lines });
});
afterAll(() => t?.stop());

test('registration, claim, polls, refresh, API keys and revocation log no secret', async () => {
  const agent = await claimedAgent(t, email('logs'), { scope: 'keys:manage' });
  const refreshed = (await token(t, { grant_type: jwtBearer, assertion: agent.assertion })).body
    .access_token;
  const key = (await postJson(`${t.baseUrl}/v1/api-keys`, { name: 'k' }, bearer(agent.accessToken)))
    .body.key;
  await fetch(`${t.baseUrl}/v1/api-keys`, { headers: { 'x-api-key': key } });
  await fetch(
    `${t.baseUrl}/agent/identity/claim?claim_attempt_token=${attemptToken(agent.registration)}`,
    { redirect: 'manual' },
  );
  await token(t, { grant_type: jwtBearer, assertion: `${agent.assertion}x` });
  await postForm(`${t.baseUrl}/oauth2/revoke`, { token: refreshed });

  expect(lines.length).toBeGreaterThan(10);
  const all = lines.join('\n');
  for (const secret of [
    agent.accessToken,
    refreshed,
    agent.assertion,
    agent.assertion.split('.')[2]!,
    agent.registration.claim_token,
    attemptToken(agent.registration),
    agent.registration.claim.user_code,
    key,
  ]) {
    expect(all).not.toContain(secret);
  }
  // The events worth knowing are there, by id.
  expect(all).toContain(agent.registration.registration_id);
});
