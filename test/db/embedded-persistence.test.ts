/**
 * The embedded default keeps its data in DATA_DIR: a person who signed up before a restart can
 * sign in after it. Always runs on PGlite, whatever database the rest of the suite uses.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { startTestApp } from '../helpers/app.ts';
import { FormClient } from '../helpers/form.ts';

const dataDir = await mkdtemp(path.join(tmpdir(), 'latchkey-persist-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

test('data survives a restart of the embedded database', async () => {
  const credentials = { email: 'persist@example.test', password: 'survives restarts' };
  const first = await startTestApp({ dataDir });
  expect(first.app.db.embedded).toBe(true);
  const signup = await new FormClient(first.baseUrl).submit(
    '/console/signup',
    '/console/signup',
    credentials,
  );
  expect(signup.response.status).toBe(303);
  await first.stop();

  const second = await startTestApp({ dataDir });
  try {
    const login = await new FormClient(second.baseUrl).submit(
      '/console/login',
      '/console/login',
      credentials,
    );
    expect(login.response.status).toBe(303);
    expect(login.response.headers.get('location')).toBe('/console/');
  } finally {
    await second.stop();
  }
});
