/**
 * The synthetic SMS endpoint: a customer's app under test "sends" to a synthetic number held by
 * the customer's own session, authenticated like any /v1 call, and the waiting agent gets the code.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Scope } from '../../../src/auth/principal.ts';
import { createApiKey } from '../../../src/domain/agents/api-keys.ts';
import { openSession } from '../../../src/domain/sessions/open.ts';
import { waitForVerdict } from '../../../src/domain/verdicts/wait.ts';
import type { TestApp } from '../../helpers/app.ts';
import {
  countRows,
  createAccount,
  ctxOf,
  principalFor,
  startChallengeApp,
  watching,
} from '../../helpers/challenges.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startChallengeApp();
});
afterAll(() => t?.stop());

async function apiKey(accountId: string, scopes: Scope[] = ['sessions:write']) {
  const { secret } = await createApiKey(
    t.app.db.orm.em.fork(),
    { accountId, name: 'app under test', scopes, createdBy: 'test' },
    new Set(scopes),
  );
  return secret;
}

const send = (key: string | undefined, body: unknown) =>
  fetch(`${t.baseUrl}/v1/synthetic/sms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
    body: JSON.stringify(body),
  });

describe('POST /v1/synthetic/sms', () => {
  test("delivers to the account's own session, answers 201 after commit, and the waiter gets the code", async () => {
    const accountId = await createAccount(t.app);
    const principal = principalFor(accountId);
    const session = await openSession(ctxOf(t.app), principal);
    const ready = watching(t.app, session.number!);
    const waiting = waitForVerdict(ctxOf(t.app), principal, session.id, { timeout: 10 });
    await ready;
    const sent = Date.now();
    const response = await send(await apiKey(accountId), {
      to: session.number,
      from: 'ACME',
      body: 'ACME: your login code is 650123',
    });
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toEqual({ message_id: expect.stringMatching(/^msg_/), session_id: session.id });
    expect(await waiting).toMatchObject({ verdict: 'otp_code', otpCode: '650123', from: 'ACME' });
    expect(Date.now() - sent).toBeLessThan(3000);
  });

  test("a number held by another account's session is 404 and nothing is stored", async () => {
    const owner = principalFor(await createAccount(t.app));
    const session = await openSession(ctxOf(t.app), owner);
    const before = await countRows(t.app, 'inbound_message');
    const response = await send(await apiKey(await createAccount(t.app)), {
      to: session.number,
      from: '+14155550100',
      body: 'code 123123',
    });
    expect(response.status).toBe(404);
    expect((await response.json()).code).toBe('not_found');
    expect(await countRows(t.app, 'inbound_message')).toBe(before);
  });

  test('without credentials it is 401 with the resource-metadata challenge; without sessions:write, 403', async () => {
    const anonymous = await send(undefined, { to: '+12025550100', from: 'x', body: 'y' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toContain('resource_metadata=');
    const accountId = await createAccount(t.app);
    const readOnly = await send(await apiKey(accountId, ['sessions:read']), {
      to: '+12025550100',
      from: 'x',
      body: 'y',
    });
    expect(readOnly.status).toBe(403);
    expect((await readOnly.json()).code).toBe('insufficient_scope');
  });

  test.each([
    [{ to: '12025550100', from: 'x', body: 'y' }, 'to'],
    [{ to: '+12025550100', from: 'x' }, 'body'],
    [{ to: '+12025550100', from: 'x', body: 'y', extra: 1 }, ''],
  ])('a malformed body is invalid_request (%#)', async (body, field) => {
    const response = await send(await apiKey(await createAccount(t.app)), body);
    expect(response.status).toBe(400);
    const problem = await response.json();
    expect(problem.code).toBe('invalid_request');
    expect(problem.detail).toContain(field);
  });
});
