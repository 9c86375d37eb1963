/**
 * A code acknowledged to the carrier survives a crash: the real service process (`node
 * src/main.ts`) takes a Twilio delivery, answers 200, is killed with SIGKILL at once, and after a
 * restart on the same database the waiting agent still gets the code.
 * Runs on whichever database the suite uses: the embedded one on disk in DATA_DIR, or a real
 * PostgreSQL database shared by the three runs.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { openSession } from '../../../src/domain/sessions/open.ts';
import { waitForVerdict } from '../../../src/domain/verdicts/wait.ts';
import { freePort, startTestApp, type TestAppOptions } from '../../helpers/app.ts';
import {
  createAccount,
  ctxOf,
  postTwilio,
  principalFor,
  TWILIO_TOKEN,
} from '../../helpers/challenges.ts';
import { createTestDatabase } from '../../helpers/database.ts';
import { started } from '../../helpers/processes.ts';

const dataDir = await mkdtemp(path.join(tmpdir(), 'latchkey-crash-'));
const database = await createTestDatabase();
let child: ChildProcess | undefined;
afterAll(async () => {
  child?.kill('SIGKILL');
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
});

// The same DATA_DIR on PostgreSQL too: it holds the sealing key file both processes must share.
const sameDatabase: TestAppOptions = database.url
  ? { dataDir, env: { DATABASE_URL: database.url, TWILIO_AUTH_TOKEN: TWILIO_TOKEN } }
  : { dataDir, env: { TWILIO_AUTH_TOKEN: TWILIO_TOKEN } };

test('a code acknowledged to Twilio survives SIGKILL and is delivered after the restart', async () => {
  // Before: a session on the shared database.
  const before = await startTestApp(sameDatabase);
  const principal = principalFor(await createAccount(before.app));
  const session = await openSession(ctxOf(before.app), principal);
  await before.stop();

  // The real process takes the delivery and dies right after acknowledging it.
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
      TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
      SMTP_PORT: '0',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await started(child);
  const exited = new Promise((resolve) => child!.once('exit', resolve));
  const response = await postTwilio(baseUrl, {
    to: session.number!,
    body: 'Your Acme code is 602214. Do not share it.',
  });
  child.kill('SIGKILL');
  expect(response.status).toBe(200);
  expect(await exited).toBe(null);

  // After: a new instance on the same database delivers the code.
  const after = await startTestApp(sameDatabase);
  try {
    const result = await waitForVerdict(ctxOf(after.app), principal, session.id, { timeout: 5 });
    expect(result).toMatchObject({ verdict: 'otp_code', otpCode: '602214' });
  } finally {
    await after.stop();
  }
});
