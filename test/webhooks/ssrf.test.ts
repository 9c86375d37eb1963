/**
 * The SSRF guard: without WEBHOOK_ALLOW_PRIVATE, endpoints must be https and public; at delivery
 * time the resolved address is checked again, so a name resolving to loopback (`localhost`) or a
 * literal private address that got into the table is refused before any byte is sent.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { newWebhookSecret, sealSecret } from '../../src/domain/webhooks/secrets.ts';
import { guardedLookup, isPublicAddress } from '../../src/domain/webhooks/target-guard.ts';
import { newId } from '../../src/entities/base.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { rest } from '../helpers/faces.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';
import { eventually, type Receiver, startReceiver } from '../helpers/webhook-receiver.ts';

let t: TestApp;
let receiver: Receiver;
let account: string;
let key: string;

beforeAll(async () => {
  t = await startTestApp();
  receiver = await startReceiver();
  account = await newAccount(t);
  key = await apiKey(t, account);
});
afterAll(async () => {
  await t?.stop();
  await receiver?.close();
});

test('only globally routable unicast addresses count as public (IPv4, IPv6, IPv4-mapped)', () => {
  for (const address of [
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '2002:7f00:1::',
    'not an address',
  ]) {
    expect(isPublicAddress(address), address).toBe(false);
  }
  for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) {
    expect(isPublicAddress(address), address).toBe(true);
  }
});

test('the delivery-time lookup refuses a name that resolves to loopback', async () => {
  const error = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
    guardedLookup('localhost', {}, (e) => resolve(e)),
  );
  expect(error?.code).toBe('EWEBHOOKBLOCKED');
});

test('creating an endpoint for http, loopback, private, link-local, metadata or localhost targets is refused with webhook_target_not_allowed', async () => {
  for (const url of [
    receiver.url,
    `https://127.0.0.1:${receiver.port}/hook`,
    'https://10.1.2.3/hook',
    'https://192.168.0.10/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/hook',
    'https://[::1]/hook',
    'https://[fd00::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://localhost/hook',
    'https://api.localhost/hook',
    'http://example.com/hook',
  ]) {
    const answer = await rest(t, 'POST', '/v1/webhooks', key, { url });
    expect(answer.status, url).toBe(422);
    expect(answer.body.code, url).toBe('webhook_target_not_allowed');
  }
  const ok = await rest(t, 'POST', '/v1/webhooks', key, { url: 'https://example.com/hook' });
  expect(ok.status).toBe(201);
  await rest(t, 'DELETE', `/v1/webhooks/${ok.body.id}`, key);
});

test('at delivery time a name resolving to loopback and a literal loopback address are refused, and nothing reaches the receiver', async () => {
  // Rows as if the guard at creation had been passed (a name that resolved elsewhere then).
  const ids: string[] = [];
  for (const url of [
    `https://localhost:${receiver.port}/hook`,
    `https://127.0.0.1:${receiver.port}/hook`,
    `http://127.0.0.1:${receiver.port}/hook`,
  ]) {
    const id = newId('whe');
    await t.app.db.orm.em.fork().execute(
      `insert into webhook_endpoint (id, created_at, updated_at, account_id, url, secret)
       values (?, now(), now(), ?, ?, ?)`,
      [id, account, url, sealSecret(t.app.challenges.sealer, id, 'current', newWebhookSecret())],
    );
    ids.push(id);
  }
  for (const id of ids) {
    expect((await rest(t, 'POST', `/v1/webhooks/${id}/test`, key)).status).toBe(202);
  }
  for (const id of ids) {
    // `attempts` counts from the claim, before the attempt's outcome is written (worker.ts): wait
    // for the outcome itself, or a read between the two finds no error yet.
    const row = await eventually(async () => {
      const [recorded] = await t.app.db.orm.em
        .fork()
        .execute<{ id: string; last_error: string }[]>(
          'select id, last_error from webhook_delivery where endpoint_id = ? and last_error is not null',
          [id],
        );
      return recorded;
    });
    expect(row.last_error).toBe('target address not allowed');
    const list = await rest(t, 'GET', `/v1/webhooks/${id}/deliveries`, key);
    expect(list.body.deliveries).toHaveLength(1);
    expect(list.body.deliveries[0]).toMatchObject({
      id: row.id,
      status: 'pending',
      attempts: 1,
      last_status_code: null,
    });
  }
  expect(receiver.received).toEqual([]);
});
