/** Registration is unauthenticated, so it is throttled per client address and per login_hint. */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { registrationLimits } from '../../src/auth/registration-routes.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const register = (email: string) =>
  fetch(`${t.baseUrl}/agent/identity`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'service_auth', login_hint: email }),
  });

test('one person can be sent only so many claim requests; then 429 rate_limited with Retry-After', async () => {
  for (let i = 0; i < registrationLimits.perEmail.max; i += 1) {
    expect((await register('flooded@example.test')).status).toBe(201);
  }
  const refused = await register('flooded@example.test');
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await refused.json()).toEqual({
    error: 'rate_limited',
    error_description: 'too many registrations; retry later',
  });
  expect((await register('someone-else@example.test')).status).toBe(201);
});

test('one client address can register only so many agents in the window', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < registrationLimits.perAddress.max; i += 1)
    statuses.push((await register(`agent-${i}@example.test`)).status);
  // The first test already spent 12 of this address's registrations.
  expect(statuses.filter((s) => s === 201).length).toBe(registrationLimits.perAddress.max - 12);
  expect(statuses.filter((s) => s === 429).length).toBe(12);
});
