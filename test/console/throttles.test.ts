/**
 * Issue 11 §2, honest throttles: attempts are counted atomically *before* the password is checked,
 * so parallel wrong passwords cannot slip past the limit (the old check-verify-count let every
 * one of them be evaluated); the client address has a limit of its own; sign-ups are limited per
 * client address. Evaluations are observed through the service's `console_signin` log events.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { password, person } from '../auth/support.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { FormClient } from '../helpers/form.ts';

const lines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ logLines: lines, env: { SIGNUP_MAX_PER_ADDRESS: '1000' } });
});
afterAll(() => t?.stop());

/** A sign-in form ready to post (CSRF fetched beforehand, so the posts can truly race). */
async function preparedSignIn(address: string, pw: string) {
  const client = new FormClient(t.baseUrl);
  const page = await client.get('/console/login');
  const body = new URLSearchParams({
    _csrf: FormClient.csrf(page.text),
    email: address,
    password: pw,
  }).toString();
  return () => client.post('/console/login', body);
}

const outcomes = (since: number) =>
  lines
    .slice(since)
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.event === 'console_signin')
    .map((entry) => entry.outcome as string);

describe('sign-in throttling under parallel attempts', () => {
  test('30 wrong passwords at once: at most 5 are evaluated, the rest are refused unevaluated, then even the right one is refused', async () => {
    const address = 'parallel-victim@example.test';
    await person(t, address);
    const posts = await Promise.all(
      Array.from({ length: 30 }, (_, i) => preparedSignIn(address, `wrong guess ${i}`)),
    );
    const since = lines.length;
    const answers = await Promise.all(posts.map((post) => post()));
    const seen = outcomes(since);
    expect(seen.filter((o) => o === 'failure')).toHaveLength(5);
    expect(seen.filter((o) => o === 'throttled')).toHaveLength(25);
    const statuses = answers.map((a) => a.response.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(26);
    expect(statuses).not.toContain(303);

    const right = await (await preparedSignIn(address, password))();
    expect(right.response.status).toBe(429);
    expect(Number(right.response.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test('one client address guessing across many emails is throttled too: at most 4× the per-account limit evaluated', async () => {
    const own: string[] = [];
    const app = await startTestApp({ logLines: own, env: { SIGNIN_MAX_FAILURES: '2' } });
    try {
      const posts = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const client = new FormClient(app.baseUrl);
          const page = await client.get('/console/login');
          const body = new URLSearchParams({
            _csrf: FormClient.csrf(page.text),
            email: `sprayed-${i}@example.test`,
            password: 'spray guess',
          }).toString();
          return () => client.post('/console/login', body);
        }),
      );
      const answers = await Promise.all(posts.map((post) => post()));
      const seen = own
        .map((line) => JSON.parse(line))
        .filter((entry) => entry.event === 'console_signin')
        .map((entry) => entry.outcome);
      expect(seen.filter((o) => o === 'failure')).toHaveLength(8);
      expect(seen.filter((o) => o === 'throttled')).toHaveLength(12);
      expect(answers.filter((a) => a.response.status === 429)).toHaveLength(13);
    } finally {
      await app.stop();
    }
  });

  test('a successful sign-in gives its attempt back to the address: a busy office is not locked out', async () => {
    const app = await startTestApp({ env: { SIGNIN_MAX_FAILURES: '1' } });
    try {
      const address = 'office@example.test';
      await person(app, address);
      // The address limit is 4 here; six good sign-ins in a row from one address all pass.
      for (let i = 0; i < 6; i += 1) {
        const { response } = await new FormClient(app.baseUrl).submit(
          '/console/login',
          '/console/login',
          { email: address, password },
        );
        expect(response.status).toBe(303);
      }
    } finally {
      await app.stop();
    }
  });
});

describe('sign-up throttling', () => {
  test('sign-ups are limited per client address, also when they race: a 429 with Retry-After that creates nothing', async () => {
    const app = await startTestApp({ env: { SIGNUP_MAX_PER_ADDRESS: '3' } });
    try {
      const posts = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => {
          const client = new FormClient(app.baseUrl);
          const page = await client.get('/console/signup');
          const body = new URLSearchParams({
            _csrf: FormClient.csrf(page.text),
            email: `mass-${i}@example.test`,
            password,
          }).toString();
          return () => client.post('/console/signup', body);
        }),
      );
      const answers = await Promise.all(posts.map((post) => post()));
      const statuses = answers.map((a) => a.response.status).sort();
      expect(statuses).toEqual([303, 303, 303, 429, 429, 429, 429, 429]);
      const refused = answers.find((a) => a.response.status === 429)!;
      expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.text).toContain('Too many accounts were created from your network');
      const [{ n }] = await app.app.db.orm.em
        .fork()
        .getConnection()
        .execute('select count(*)::int as n from app_user');
      expect(n).toBe(3);
    } finally {
      await app.stop();
    }
  });
});
