/**
 * A verdict's webhook survives a crash: the real service process (`node src/main.ts`) stores the
 * verdict and its outbox row in one statement, acknowledges Twilio, and is killed with SIGKILL
 * while its delivery is still unanswered (the receiver holds it). A new instance on the same
 * database delivers it — with the same `webhook-id` if the dead one had already tried.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, expect, test } from 'vitest';
import { openSession } from '../../src/domain/sessions/open.ts';
import { createWebhookEndpoint } from '../../src/domain/webhooks/endpoints.ts';
import { freePort, startTestApp, type TestAppOptions } from '../helpers/app.ts';
import {
  createAccount,
  ctxOf,
  postTwilio,
  principalFor,
  TWILIO_TOKEN,
} from '../helpers/challenges.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { started } from '../helpers/processes.ts';
import { eventually, startReceiver } from '../helpers/webhook-receiver.ts';

const dataDir = await mkdtemp(path.join(tmpdir(), 'latchkey-webhook-crash-'));
const database = await createTestDatabase();
const receiver = await startReceiver();
let child: ChildProcess | undefined;
afterAll(async () => {
  child?.kill('SIGKILL');
  await receiver.close();
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
});

// Every instance on the shared database holds the same sealing key (on the embedded database they
// share DATA_DIR, and with it the key file, anyway).
const env = {
  TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
  WEBHOOK_ALLOW_PRIVATE: 'true',
  SECRETS_KEY: database.secretsKey,
};
const sameDatabase: TestAppOptions = database.url
  ? { env: { DATABASE_URL: database.url, ...env } }
  : { dataDir, env };

test('a session.verdict webhook pending at SIGKILL is delivered by the next instance, signed, with one webhook-id', async () => {
  const before = await startTestApp(sameDatabase);
  const accountId = await createAccount(before.app);
  const principal = principalFor(accountId);
  const session = await openSession(ctxOf(before.app), principal);
  const { secret } = await createWebhookEndpoint(ctxOf(before.app), accountId, {
    url: receiver.url,
    events: ['session.verdict'],
  });
  await before.stop();

  // The dying process: its delivery attempt (if it gets that far) is never answered.
  receiver.answer = 'hold';
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['src/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_BASE_URL: baseUrl,
      DATA_DIR: dataDir,
      DATABASE_URL: database.url ?? '',
      REDIS_URL: '',
      SMTP_PORT: '0',
      LOG_LEVEL: 'info',
      // A short attempt deadline, so a lease the dead process left lapses soon.
      WEBHOOK_ATTEMPT_TIMEOUT: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await started(child);
  const exited = new Promise((resolve) => child!.once('exit', resolve));
  const response = await postTwilio(baseUrl, {
    to: session.number!,
    body: 'Your Acme code is 271828. Do not share it.',
  });
  child.kill('SIGKILL');
  expect(response.status).toBe(200);
  expect(await exited).toBe(null);
  const triedBeforeDeath = receiver.received.length;

  // The next instance: the receiver answers now.
  receiver.answer = 200;
  const after = await startTestApp({
    ...sameDatabase,
    env: { ...sameDatabase.env, WEBHOOK_ATTEMPT_TIMEOUT: '1' },
  });
  try {
    const requests = await receiver.next(triedBeforeDeath + 1);
    const delivered = requests[requests.length - 1]!;
    const event = new Webhook(secret).verify(delivered.body, delivered.headers) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(event.type).toBe('session.verdict');
    expect(event.data).toMatchObject({ session_id: session.id, otp_code: '271828' });
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const [row] = await eventually(async () => {
      const rows = await after.app.db.orm.em
        .fork()
        .execute<{ id: string; status: string }[]>(
          "select id, status from webhook_delivery where event_type = 'session.verdict'",
        );
      return rows[0]?.status === 'delivered' && rows;
    });
    expect(row!.id).toBe(delivered.headers['webhook-id']);
  } finally {
    await after.stop();
  }
}, 90_000);
