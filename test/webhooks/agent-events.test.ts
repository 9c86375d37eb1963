/**
 * agent.claimed and agent.revoked reach the account's webhooks: the claim statement and the
 * revocation transaction write their outbox rows, and the receiver verifies them.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { markRevoked } from '../../src/domain/agents/registrations.ts';
import { createWebhookEndpoint } from '../../src/domain/webhooks/endpoints.ts';
import { email, person, register, submitClaim } from '../auth/support.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { ctxOf } from '../helpers/challenges.ts';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.ts';

let t: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await t?.stop();
  await receiver?.close();
});

test('claiming an agent sends agent.claimed and revoking it sends agent.revoked to the account', async () => {
  const address = email('hooked');
  const registration = await register(t, address);
  const client = await person(t, address);
  const [user] = await t.app.db.orm.em
    .fork()
    .execute<{ account_id: string }[]>('select account_id from app_user where email = ?', [
      address,
    ]);
  const { secret } = await createWebhookEndpoint(ctxOf(t.app), user!.account_id, {
    url: receiver.url,
    events: ['agent.claimed', 'agent.revoked'],
  });

  const claimed = await submitClaim(client, registration, registration.claim.user_code);
  expect(claimed.response.status).toBe(200);
  const [first] = await receiver.next(1);
  const verify = (r: typeof first) =>
    new Webhook(secret).verify(r!.body, r!.headers) as {
      type: string;
      data: Record<string, unknown>;
    };
  expect(verify(first)).toMatchObject({
    type: 'agent.claimed',
    data: { agent_id: registration.registration_id },
  });

  expect(await markRevoked(ctxOf(t.app), registration.registration_id)).toBe(true);
  const [, second] = await receiver.next(2);
  expect(verify(second)).toMatchObject({
    type: 'agent.revoked',
    data: { agent_id: registration.registration_id },
  });
});
