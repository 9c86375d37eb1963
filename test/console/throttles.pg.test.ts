/**
 * Sign-in throttling across two service instances sharing one PostgreSQL database: wrong
 * passwords fired at both at once are still evaluated at most SIGNIN_MAX_FAILURES times in all,
 * because each attempt is counted by one atomic upsert in the shared database before it is
 * checked. Needs a real PostgreSQL (LATCHKEY_TEST_DATABASE_URL).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { password, person } from '../auth/support.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { FormClient } from '../helpers/form.ts';

let database: TestDatabase;
let a: TestApp;
let b: TestApp;
const logs: [string[], string[]] = [[], []];

beforeAll(async () => {
  if (!process.env.LATCHKEY_TEST_DATABASE_URL) {
    throw new Error('needs LATCHKEY_TEST_DATABASE_URL');
  }
  database = await createTestDatabase();
  // Instances sharing a database share the sealing keys (each has its own DATA_DIR).
  const env = {
    DATABASE_URL: database.url!,
    SECRETS_KEY: database.secretsKey,
  };
  a = await startTestApp({ env, logLines: logs[0] });
  b = await startTestApp({ env, logLines: logs[1] });
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await database?.drop();
});

test('40 wrong passwords split over two instances: 5 evaluated in all, then the right one is refused on both', async () => {
  const address = 'two-instances@example.test';
  await person(a, address);
  const posts = await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const client = new FormClient((i % 2 ? a : b).baseUrl);
      const page = await client.get('/console/login');
      const body = new URLSearchParams({
        _csrf: FormClient.csrf(page.text),
        email: address,
        password: `wrong guess ${i}`,
      }).toString();
      return () => client.post('/console/login', body);
    }),
  );
  await Promise.all(posts.map((post) => post()));
  const seen = logs
    .flat()
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.event === 'console_signin');
  // At most the limit is evaluated (the old check-then-count order evaluated all 40). On a busy
  // machine one counted attempt may fail for want of a connection before its password is checked;
  // it still counts against the limit, so it is never a 6th guess.
  const failures = seen.filter((e) => e.outcome === 'failure').length;
  expect(failures).toBeGreaterThan(0);
  expect(failures).toBeLessThanOrEqual(5);
  expect(seen.filter((e) => e.outcome === 'throttled').length).toBeGreaterThanOrEqual(35);

  for (const instance of [a, b]) {
    const right = await new FormClient(instance.baseUrl).submit(
      '/console/login',
      '/console/login',
      {
        email: address,
        password,
      },
    );
    expect(right.response.status).toBe(429);
  }
});
