/**
 * Issue 14 at the HTTP level: the console's session as a read-only GraphQL principal (an SSE
 * subscription from the console's own origin only), plan changes and their timing, the CSV
 * statement, tenancy of the session page, agent names at registration, and the operator's admin
 * command (set-plan, list, disable).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { applyScheduledPlans } from '../../src/domain/usage/plan.ts';
import { disableAccount, listAccounts, runAdmin, setPlan } from '../../src/ops/admin.ts';
import {
  bearer,
  type ClaimedAgent,
  claimedAgent,
  email,
  get,
  password,
  postJson,
} from '../auth/support.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { FormClient } from '../helpers/form.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.stop());

const em = () => t.app.db.orm.em.fork() as EntityManager;
const subscription = encodeURIComponent('subscription { accountEvents { type sessionId } }');

/** Opens the dashboard's stream as a browser would, with the given request headers. */
async function stream(headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(`${t.baseUrl}/graphql?query=${subscription}`, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  let text = '';
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let ended = false;
  const reading = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    } catch {}
    ended = true;
  })();
  return {
    response,
    get text() {
      return text;
    },
    get ended() {
      return ended;
    },
    async close() {
      controller.abort();
      await reading;
    },
  };
}

const openSms = async (agent: ClaimedAgent) => {
  const opened = await postJson(
    `${t.baseUrl}/v1/sessions`,
    { channel: 'sms_otp' },
    bearer(agent.accessToken),
  );
  expect(opened.status).toBe(201);
  return opened.body as { session_id: string; number: string };
};
const smsCode = async (agent: ClaimedAgent, to: string, code: string) => {
  const sent = await postJson(
    `${t.baseUrl}/v1/synthetic/sms`,
    { to, from: '+15550008888', body: `Your code is ${code}` },
    bearer(agent.accessToken),
  );
  expect(sent.status).toBeLessThan(300);
};

describe("the console's live stream (GraphQL over SSE with the console session)", () => {
  test('from the console itself, it delivers the account events without any credential header', async () => {
    const agent = await claimedAgent(t, email('sse'));
    const live = await stream({
      cookie: agent.person.cookieHeader,
      'sec-fetch-site': 'same-origin',
    });
    expect(live.response.status).toBe(200);
    expect(live.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const session = await openSms(agent);
    await expect.poll(() => live.text, { timeout: 2000 }).toContain(session.session_id);
    expect(live.text).toContain('session.opened');
    await live.close();
  });

  test.each([
    [
      'a request from another site (Sec-Fetch-Site: cross-site)',
      { 'sec-fetch-site': 'cross-site' },
    ],
    ['a request from another origin', { origin: 'https://evil.example' }],
    ['a request from a same-site but other-origin page', { 'sec-fetch-site': 'same-site' }],
    ['a request that says neither where it comes from', {}],
  ])('%s is not authenticated by the cookie: 401', async (_name, extra) => {
    const agent = await claimedAgent(t, email('xorigin'));
    const live = await stream({ cookie: agent.person.cookieHeader, ...extra });
    expect(live.response.status).toBe(401);
    await expect.poll(() => live.ended).toBe(true);
    expect(JSON.parse(live.text)).toMatchObject({ code: 'unauthenticated' });
  });

  test('the cookie never authenticates a POST (no mutation can ride on it)', async () => {
    const agent = await claimedAgent(t, email('post'));
    const answer = await postJson(
      `${t.baseUrl}/graphql`,
      { query: 'mutation { openChallenge { id } }' },
      {
        cookie: agent.person.cookieHeader,
        'sec-fetch-site': 'same-origin',
        accept: 'text/event-stream',
      },
    );
    expect(answer.status).toBe(401);
  });

  test('the console principal is read-only: a subscription that would consume codes is refused (insufficient_scope)', async () => {
    const agent = await claimedAgent(t, email('readonly'));
    const session = await openSms(agent);
    const query = encodeURIComponent(
      `subscription { sessionVerdicts(sessionId: "${session.session_id}") { otpCode } }`,
    );
    const response = await fetch(`${t.baseUrl}/graphql?query=${query}`, {
      headers: {
        accept: 'text/event-stream',
        cookie: agent.person.cookieHeader,
        'sec-fetch-site': 'same-origin',
      },
    });
    const text = await response.text();
    expect(text).toContain('insufficient_scope');
    expect(text).toContain('otp:read');
  });

  test('signing out ends the open stream within 1 s', async () => {
    const agent = await claimedAgent(t, email('signout'));
    const live = await stream({
      cookie: agent.person.cookieHeader,
      'sec-fetch-site': 'same-origin',
    });
    expect(live.response.status).toBe(200);
    const out = await agent.person.submit('/console/', '/console/logout', {});
    expect(out.response.status).toBe(303);
    const signedOutAt = Date.now();
    await expect.poll(() => live.ended, { timeout: 1000, interval: 25 }).toBe(true);
    expect(Date.now() - signedOutAt).toBeLessThan(1000);
    expect(live.text).toContain('unauthenticated');
  });
});

describe('plan changes', () => {
  const changePlan = (person: FormClient, plan: string) =>
    person.submit('/console/usage', '/console/usage/plan', { plan });
  const tierOf = async (accountEmail: string) =>
    (
      await em().execute<{ tier: string; scheduled_tier: string | null }[]>(
        'select a.tier, a.scheduled_tier from account a join app_user u on u.account_id = a.id where u.email = ?',
        [accountEmail],
      )
    )[0];

  test('an unverified person cannot change plan: email_unverified, and the plan stays Free', async () => {
    const address = email('unverified');
    const person = new FormClient(t.baseUrl);
    await person.submit('/console/signup', '/console/signup', { email: address, password });
    const refused = await changePlan(person, 'per_session');
    expect(refused.response.status).toBe(403);
    expect(refused.text).toContain('Verify your email address first');
    expect(await tierOf(address)).toEqual({ tier: 'free', scheduled_tier: null });
  });

  test('an Enterprise account cannot change its own plan (plan_not_changeable), and an unknown plan is invalid_request', async () => {
    const address = email('enterprise');
    const agent = await claimedAgent(t, address);
    await setPlan(em(), address, 'enterprise');
    const refused = await changePlan(agent.person, 'free');
    expect(refused.response.status).toBe(409);
    expect(refused.text).toContain('Enterprise, which the operator manages');
    expect((await tierOf(address))?.tier).toBe('enterprise');

    const other = await claimedAgent(t, email('bogus-plan'));
    const bogus = await changePlan(other.person, 'enterprise');
    expect(bogus.response.status).toBe(400);
    expect(bogus.text).toContain('Choose the plan Free or Per session');
  });

  test('an upgrade bills only from the moment it is made: a code received while on Free is never charged', async () => {
    const address = email('upgrade');
    const agent = await claimedAgent(t, address);
    const before = await openSms(agent);
    await smsCode(agent, before.number, '100200');
    await expect
      .poll(
        async () =>
          (await get(`${t.baseUrl}/v1/usage/summary`, bearer(agent.accessToken))).body
            .billable_sessions,
      )
      .toBe(1);
    const changed = await changePlan(agent.person, 'per_session');
    expect(changed.response.status).toBe(303);
    expect(changed.response.headers.get('location')).toBe('/console/usage?notice=plan_now');

    const summary = async () =>
      (await get(`${t.baseUrl}/v1/usage/summary`, bearer(agent.accessToken))).body;
    expect((await summary()).amount_due_cents).toBe(0);
    const after = await openSms(agent);
    await smsCode(agent, after.number, '300400');
    await expect.poll(async () => (await summary()).amount_due_cents).toBe(99);

    const csv = await agent.person.get('/console/usage/statement.csv');
    expect(csv.response.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(new RegExp(`^${before.session_id},.*,0\\.00$`));
    expect(lines[2]).toMatch(new RegExp(`^${after.session_id},.*,0\\.99$`));
  });

  test('a downgrade to Free waits for the next UTC month, and choosing Per session again cancels it', async () => {
    const address = email('downgrade');
    const agent = await claimedAgent(t, address);
    await changePlan(agent.person, 'per_session');
    const scheduled = await changePlan(agent.person, 'free');
    expect(scheduled.response.headers.get('location')).toBe('/console/usage?notice=plan_scheduled');
    expect(await tierOf(address)).toEqual({ tier: 'per_session', scheduled_tier: 'free' });
    const page = await agent.person.get('/console/usage?notice=plan_scheduled');
    expect(page.text).toMatch(/Your plan changes to Free on \d{4}-\d{2}-01/);

    // Before the month ends nothing changes; from its first instant on, the sweeper applies it.
    const now = new Date();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    await applyScheduledPlans(em(), new Date(nextMonth.getTime() - 1000));
    expect((await tierOf(address))?.tier).toBe('per_session');
    await applyScheduledPlans(em(), nextMonth);
    expect(await tierOf(address)).toEqual({ tier: 'free', scheduled_tier: null });

    await changePlan(agent.person, 'per_session');
    await changePlan(agent.person, 'free');
    await changePlan(agent.person, 'per_session');
    expect(await tierOf(address)).toEqual({ tier: 'per_session', scheduled_tier: null });
  });

  test('the statement refuses a malformed period with invalid_request', async () => {
    const agent = await claimedAgent(t, email('period'));
    const answer = await agent.person.get('/console/usage/statement.csv?period=2026-13');
    expect(answer.response.status).toBe(400);
    expect(answer.text).toContain('invalid_request');
  });
});

describe('tenancy and names', () => {
  test("another account's session page is not_found, like an unknown one", async () => {
    const owner = await claimedAgent(t, email('owner'));
    const session = await openSms(owner);
    const stranger = await claimedAgent(t, email('stranger'));
    const page = await stranger.person.get(`/console/sessions/${session.session_id}`);
    expect(page.response.status).toBe(404);
    expect(page.text).not.toContain(session.number);
    const own = await owner.person.get(`/console/sessions/${session.session_id}`);
    expect(own.response.status).toBe(200);
    expect(own.text).toContain(session.number);
  });

  test('a registration name longer than 100 characters is refused with invalid_request naming the field', async () => {
    const answer = await postJson(`${t.baseUrl}/agent/identity`, {
      type: 'service_auth',
      login_hint: email('longname'),
      name: 'x'.repeat(101),
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: 'invalid_request',
      error_description: 'name: name must be at most 100 characters',
    });
  });
});

describe('console assets', () => {
  test('the live script is served from the console itself; an unknown or inherited asset name is a 404 page, not a 500', async () => {
    const script = await get(`${t.baseUrl}/console/assets/live.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.text).toContain('accountEvents');
    for (const name of ['constructor', 'toString', 'nothing.js']) {
      const missing = await get(`${t.baseUrl}/console/assets/${name}`);
      expect(missing.status).toBe(404);
      expect(missing.text).toContain('not_found');
    }
  });
});

describe('the admin command', () => {
  test('set-plan makes an account Enterprise and list shows it', async () => {
    const address = email('admin-plan');
    const agent = await claimedAgent(t, address);
    await setPlan(em(), address, 'enterprise');
    const line = (await listAccounts(em())).find((account) => account.emails.includes(address));
    expect(line).toMatchObject({ tier: 'enterprise', disabledAt: null });
    const usage = await agent.person.get('/console/usage');
    expect(usage.text).toContain('Enterprise');
    expect(usage.text).not.toContain('Change plan');
  });

  test('disable: the person cannot sign in (account_disabled), the console session ends, and the agent and its keys stop working', async () => {
    const address = email('admin-disable');
    const agent = await claimedAgent(t, address, { scope: 'keys:manage' });
    const minted = await postJson(
      `${t.baseUrl}/v1/api-keys`,
      { name: 'k' },
      bearer(agent.accessToken),
    );
    expect(minted.status).toBe(201);
    const result = await disableAccount(em(), address);
    expect(result).toMatchObject({ agents: 1, keys: 1 });

    expect((await get(`${t.baseUrl}/v1/sessions`, bearer(agent.accessToken))).status).toBe(401);
    expect((await get(`${t.baseUrl}/v1/sessions`, { 'x-api-key': minted.body.key })).status).toBe(
      401,
    );
    const dashboard = await agent.person.get('/console/');
    expect(dashboard.response.status).toBe(303);
    const person = new FormClient(t.baseUrl);
    const signIn = await person.submit('/console/login', '/console/login', {
      email: address,
      password,
    });
    expect(signIn.response.status).toBe(403);
    expect(signIn.text).toContain('disabled by the operator');
  });

  test('the command refuses unknown commands and wrong arguments with its usage, before touching any database', async () => {
    for (const args of [[], ['bogus'], ['set-plan', 'a@example.test'], ['disable']]) {
      await expect(runAdmin(args, {}, () => {})).rejects.toThrow(/usage: npm run admin/);
    }
  });

  test('the command runs against the configured database: list on an empty one prints nothing, set-plan of an unknown email is not_found', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'latchkey-admin-'));
    const env = {
      DATA_DIR: dataDir,
      ...(process.env.LATCHKEY_TEST_DATABASE_URL ? { DATABASE_URL: t.app.config.databaseUrl } : {}),
    };
    const lines: string[] = [];
    if (!process.env.LATCHKEY_TEST_DATABASE_URL) {
      await runAdmin(['list'], env, (line) => lines.push(line));
      expect(lines).toEqual([]);
    }
    await expect(
      runAdmin(['set-plan', 'nobody@example.test', 'enterprise'], env, () => {}),
    ).rejects.toThrow('no account has a user with the email nobody@example.test');
  });
});
