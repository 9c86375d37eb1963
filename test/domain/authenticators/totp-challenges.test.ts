/**
 * Issue 20: `totp` challenges through the public faces. The app's clock is replaced by a TestClock
 * (the domain's injected clock and its timer), so time steps pass without sleeping: a wait that
 * holds for the next step moves the test clock instead.
 *
 * What is shown: codes equal the RFC 6238 Appendix B vectors and those of a stock authenticator
 * (otplib) for the same URI; a step serves one session only, so parallel challenges on one
 * authenticator get distinct codes; a code with under 5 s left is not handed out; choice by
 * target host or id (`no_authenticator`, `ambiguous_authenticator`); billing; MCP.
 */
import { authenticator as stock } from 'otplib';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { ChallengeDeps } from '../../../src/domain/context.ts';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { TestClock } from '../../helpers/challenges.ts';
import { callTool, graphql, mcpClient, rest } from '../../helpers/faces.ts';
import { apiKey, newAccount } from '../../helpers/principals.ts';

let t: TestApp;
let key: string;
let real: Pick<ChallengeDeps, 'clock' | 'after'>;

beforeAll(async () => {
  t = await startTestApp({ env: { FREE_TIER_MONTHLY_SESSIONS: '10000' } });
  key = await apiKey(t, await newAccount(t));
  real = { clock: t.app.challenges.clock, after: t.app.challenges.after };
});
afterEach(() => Object.assign(t.app.challenges, real));
afterAll(() => t?.stop());

/** Every face now reads time from `clock` (the deps object is shared by all of them). */
function useClock(clock: TestClock) {
  Object.assign(t.app.challenges, { clock: clock.now, after: clock.after });
}

async function store(body: Record<string, unknown>, k = key): Promise<string> {
  const created = await rest(t, 'POST', '/v1/authenticators', k, body);
  expect(created.status).toBe(201);
  return created.body.id;
}

async function open(body: Record<string, unknown>, k = key) {
  const opened = await rest(t, 'POST', '/v1/sessions', k, { channel: 'totp', ...body });
  expect(opened.status, opened.text).toBe(201);
  return opened.body as { session_id: string; authenticator_id: string; target: string };
}

const wait = async (sessionId: string, timeout = 120, k = key) =>
  rest(t, 'POST', `/v1/sessions/${sessionId}/wait`, k, { timeout });

const base32 = (ascii: string) => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const byte of Buffer.from(ascii, 'ascii')) bits += byte.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5)
    out += alphabet[Number.parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return out;
};

/** RFC 6238 Appendix B: the seeds of each hash and the 8-digit codes at each time. */
const seeds = {
  SHA1: '12345678901234567890',
  SHA256: '12345678901234567890123456789012',
  SHA512: '1234567890123456789012345678901234567890123456789012345678901234',
} as const;
const vectors: [number, Record<keyof typeof seeds, string>][] = [
  [1111111111, { SHA1: '14050471', SHA256: '67062674', SHA512: '99943326' }],
  [1234567890, { SHA1: '89005924', SHA256: '91819424', SHA512: '93441116' }],
  [2000000000, { SHA1: '69279037', SHA256: '90698825', SHA512: '38618901' }],
  [20000000000, { SHA1: '65353130', SHA256: '77737706', SHA512: '47863826' }],
];

describe('codes', () => {
  test('a totp wait answers the RFC 6238 Appendix B codes for SHA1, SHA256 and SHA512', async () => {
    for (const [algorithm, seed] of Object.entries(seeds)) {
      const id = await store({
        target: `rfc-${algorithm.toLowerCase()}.example`,
        secret: base32(seed),
        digits: 8,
        algorithm,
      });
      for (const [seconds, codes] of vectors) {
        const clock = new TestClock(new Date(seconds * 1000));
        useClock(clock);
        const session = await open({ authenticator_id: id });
        const answer = await wait(session.session_id);
        expect(answer.status).toBe(200);
        const stepEnd = (Math.floor(seconds / 30) + 1) * 30;
        expect(answer.body).toEqual({
          session_id: session.session_id,
          received_at: new Date(seconds * 1000).toISOString(),
          verdict: 'otp_code',
          otp_code: codes[algorithm as keyof typeof seeds],
          webauthn_required: false,
          valid_until: new Date(stepEnd * 1000).toISOString(),
          next_step: expect.stringContaining('valid_until'),
        });
        expect(clock.held).toEqual([]);
      }
    }
  });

  // otplib 12 stretches a SHA512 key by repeating it (unlike RFC 4226's HMAC and the apps people
  // use), so it is compared for SHA1 and SHA256; SHA512 is held to the RFC vectors above.
  test("codes equal a stock authenticator's (otplib) for the same otpauth URI, whatever its digits and period", async () => {
    const secret = stock.generateSecret(20);
    const uris = [
      stock.keyuri('dana@example.com', 'Stock', secret),
      `otpauth://totp/Stock:erin?secret=${secret}&issuer=Stock&digits=8&period=60&algorithm=SHA256`,
      `otpauth://totp/Stock:finn?secret=${secret}&digits=7&period=15`,
    ];
    const options = [
      { digits: 6, step: 30, algorithm: 'sha1' },
      { digits: 8, step: 60, algorithm: 'sha256' },
      { digits: 7, step: 15, algorithm: 'sha1' },
    ] as const;
    const start = Date.UTC(2026, 10, 25, 9, 0, 1);
    for (const [i, uri] of uris.entries()) {
      const id = await store({ target: `stock${i}.example`, otpauth_uri: uri });
      const clock = new TestClock(new Date(start));
      useClock(clock);
      for (let round = 0; round < 3; round++) {
        const session = await open({ authenticator_id: id });
        const answer = await wait(session.session_id);
        const at = new Date(answer.body.received_at).getTime();
        const expected = stock.clone({ ...options[i]!, epoch: at } as never).generate(secret);
        expect(answer.body.otp_code).toBe(expected);
        clock.advance(options[i]!.step);
      }
    }
  });
});

describe('never the same code twice', () => {
  test('parallel challenges on one authenticator get distinct steps: the second wait holds for the next step', async () => {
    const id = await store({ target: 'parallel.example', secret: base32(seeds.SHA1) });
    const clock = new TestClock(new Date(Date.UTC(2026, 0, 1, 0, 0, 0)));
    useClock(clock);
    const sessions = await Promise.all([1, 2, 3].map(() => open({ target: 'parallel.example' })));
    for (const session of sessions) expect(session.authenticator_id).toBe(id);
    const answers = await Promise.all(sessions.map((s) => wait(s.session_id)));
    const steps = answers.map((a) => new Date(a.body.valid_until).getTime() / 1000 / 30 - 1);
    expect(new Set(steps).size).toBe(3);
    expect(new Set(answers.map((a) => a.body.otp_code)).size).toBe(3);
    for (const answer of answers) {
      const at = new Date(answer.body.received_at).getTime();
      expect(answer.body.otp_code).toBe(stock.clone({ epoch: at }).generate(base32(seeds.SHA1)));
    }
    // A second wait on the same session is a later step too.
    const later = await wait(sessions[0]!.session_id);
    expect(steps).not.toContain(new Date(later.body.valid_until).getTime() / 30_000 - 1);
  });

  test('a code with under 5 s left is not handed out: the wait holds for the next step and answers its code', async () => {
    const id = await store({ target: 'late.example', secret: base32(seeds.SHA1) });
    const clock = new TestClock(new Date(59_000));
    useClock(clock);
    const session = await open({ authenticator_id: id });
    const answer = await wait(session.session_id);
    expect(clock.held).toEqual([1_000]);
    expect(answer.body.received_at).toBe(new Date(60_000).toISOString());
    expect(answer.body.valid_until).toBe(new Date(90_000).toISOString());
    expect(answer.body.otp_code).toBe(stock.clone({ epoch: 60_000 }).generate(base32(seeds.SHA1)));
    // With 5 s left exactly, the code is still served.
    const edge = new TestClock(new Date(115_000));
    useClock(edge);
    const second = await wait((await open({ authenticator_id: id })).session_id);
    expect(edge.held).toEqual([]);
    expect(second.body.valid_until).toBe(new Date(120_000).toISOString());
  });

  test('a wait whose timeout ends before a free step answers timeout, and serves nothing', async () => {
    const id = await store({ target: 'timeout.example', secret: base32(seeds.SHA1) });
    const clock = new TestClock(new Date(Date.UTC(2026, 0, 1, 0, 0, 10)));
    useClock(clock);
    const first = await open({ authenticator_id: id });
    expect((await wait(first.session_id)).body.verdict).toBe('otp_code');
    const second = await open({ authenticator_id: id });
    const answer = await wait(second.session_id, 5);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ verdict: 'timeout', received_at: null });
    expect(clock.held).toEqual([5_000]);
  });
});

describe('choosing the authenticator', () => {
  test('by the host of target (any URL on it), by id, none (422 no_authenticator) or several (409 ambiguous_authenticator); nothing is billed for a refusal', async () => {
    const account = await newAccount(t);
    const k = await apiKey(t, account);
    const id = await store(
      { target: 'https://Shop.Example/signin', secret: base32(seeds.SHA1) },
      k,
    );
    const byHost = await open({ target: 'https://shop.example/account/2fa' }, k);
    expect(byHost.authenticator_id).toBe(id);
    expect(byHost.target).toBe('shop.example');
    const byId = await open({ authenticator_id: id }, k);
    expect(byId).toMatchObject({ authenticator_id: id, target: 'shop.example' });

    const none = await rest(t, 'POST', '/v1/sessions', k, {
      channel: 'totp',
      target: 'other.example',
    });
    expect(none.status).toBe(422);
    expect(none.body.code).toBe('no_authenticator');
    const unknownId = await rest(t, 'POST', '/v1/sessions', k, {
      channel: 'totp',
      authenticator_id: 'aut_missing',
    });
    expect(unknownId.status).toBe(422);
    expect(unknownId.body.code).toBe('no_authenticator');
    await store({ target: 'shop.example', secret: base32(seeds.SHA256) }, k);
    const ambiguous = await rest(t, 'POST', '/v1/sessions', k, {
      channel: 'totp',
      target: 'shop.example',
    });
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body.code).toBe('ambiguous_authenticator');
    const neither = await rest(t, 'POST', '/v1/sessions', k, { channel: 'totp' });
    expect(neither.status).toBe(400);
    expect(neither.body).toMatchObject({
      code: 'invalid_request',
      detail: expect.stringMatching(/^target/),
    });
    const idOnSms = await rest(t, 'POST', '/v1/sessions', k, {
      channel: 'sms_otp',
      authenticator_id: id,
    });
    expect(idOnSms.status).toBe(400);
    expect(idOnSms.body.detail).toMatch(/^authenticator_id/);

    // Two sessions opened, two usage events; the refusals wrote none.
    const usage = await rest(t, 'GET', '/v1/usage', k);
    expect(usage.body.usage).toHaveLength(2);
    expect(usage.body.usage.map((u: { channel: string }) => u.channel)).toEqual(['totp', 'totp']);
  });

  test('a totp session is billed once it hands out a code, like a session whose SMS arrived', async () => {
    const k = await apiKey(t, await newAccount(t));
    const id = await store({ target: 'billed.example', secret: base32(seeds.SHA1) }, k);
    const session = await open({ authenticator_id: id }, k);
    const pending = await rest(t, 'GET', '/v1/usage', k);
    expect(pending.body.usage[0]).toMatchObject({ status: 'pending', channel: 'totp' });
    expect((await wait(session.session_id, 60, k)).body.verdict).toBe('otp_code');
    const billed = await rest(t, 'GET', '/v1/usage', k);
    expect(billed.body.usage[0]).toMatchObject({
      status: 'billable',
      session_id: session.session_id,
    });
    const read = await rest(t, 'GET', `/v1/sessions/${session.session_id}`, k);
    expect(read.body).toMatchObject({
      channel: 'totp',
      authenticator_id: id,
      first_code_at: expect.any(String),
    });
    expect(read.body.number).toBeUndefined();
    expect(read.body.inbox_address).toBeUndefined();
  });

  test('a closed totp session answers session_closed, and a deleted authenticator no_authenticator', async () => {
    const id = await store({ target: 'closing.example', secret: base32(seeds.SHA1) });
    const closed = await open({ authenticator_id: id });
    expect((await rest(t, 'DELETE', `/v1/sessions/${closed.session_id}`, key)).status).toBe(200);
    const afterClose = await wait(closed.session_id);
    expect(afterClose.status).toBe(409);
    expect(afterClose.body.code).toBe('session_closed');
    const orphan = await open({ authenticator_id: id });
    expect((await rest(t, 'DELETE', `/v1/authenticators/${id}`, key)).status).toBe(204);
    const afterDelete = await wait(orphan.session_id);
    expect(afterDelete.status).toBe(422);
    expect(afterDelete.body.code).toBe('no_authenticator');
  });
});

describe('the other faces', () => {
  test('MCP open_challenge opens a totp session and wait_for_verdict answers its code; no MCP tool manages authenticators', async () => {
    const id = await store({ target: 'mcp.example', secret: base32(seeds.SHA1) });
    const client = await mcpClient(t, key);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).filter((name) => /authenticator/.test(name))).toEqual(
        [],
      );
      const opened = await callTool(client, 'open_challenge', {
        channel: 'totp',
        target: 'mcp.example',
      });
      expect(opened.data).toMatchObject({ channel: 'totp', authenticator_id: id });
      const waited = await callTool(client, 'wait_for_verdict', {
        session_id: opened.data.session_id,
        timeout: 30,
      });
      expect(waited.data).toMatchObject({ verdict: 'otp_code', valid_until: expect.any(String) });
      const at = new Date(waited.data.received_at).getTime();
      expect(waited.data.otp_code).toBe(stock.clone({ epoch: at }).generate(base32(seeds.SHA1)));
    } finally {
      await client.close();
    }
  });

  test('GraphQL openChallenge takes channel totp and waitForVerdict carries validUntil', async () => {
    const id = await store({ target: 'gql.example', secret: base32(seeds.SHA1) });
    const opened = await graphql(
      t,
      key,
      'mutation($id: String) { openChallenge(input: {channel: totp, authenticatorId: $id}) { id channel authenticatorId } }',
      { id },
    );
    expect(opened.body.data.openChallenge).toMatchObject({ channel: 'totp', authenticatorId: id });
    const waited = await graphql(
      t,
      key,
      'mutation($s: ID!) { waitForVerdict(sessionId: $s, timeout: 60) { verdict otpCode validUntil } }',
      { s: opened.body.data.openChallenge.id },
    );
    expect(waited.body.data.waitForVerdict).toMatchObject({
      verdict: 'otp_code',
      otpCode: expect.stringMatching(/^\d{6}$/),
      validUntil: expect.any(String),
    });
  });

  test('the account events (dashboards, webhooks) carry session.verdict for a totp code, and a verdict subscription ends after one code', async () => {
    const id = await store({ target: 'events.example', secret: base32(seeds.SHA1) });
    const abort = new AbortController();
    const stream = async (query: string, variables?: Record<string, unknown>) => {
      const response = await fetch(`${t.baseUrl}/graphql`, {
        method: 'POST',
        headers: {
          'x-api-key': key,
          'content-type': 'application/json',
          accept: 'text/event-stream',
        },
        body: JSON.stringify({ query, variables }),
        signal: abort.signal,
      });
      expect(response.status).toBe(200);
      return response;
    };
    const events = await stream('subscription { accountEvents { type sessionId } }');
    let eventText = '';
    const reading = (async () => {
      const decoder = new TextDecoder();
      try {
        const reader = events.body!.getReader();
        for (let read = await reader.read(); !read.done; read = await reader.read())
          eventText += decoder.decode(read.value, { stream: true });
      } catch {
        // Aborted at the end of the test.
      }
    })();
    const session = await open({ authenticator_id: id });
    const verdicts = await stream(
      'subscription($s: ID!) { sessionVerdicts(sessionId: $s) { verdict otpCode validUntil } }',
      { s: session.session_id },
    );
    // The stream carries one code and then completes by itself.
    const verdictText = await verdicts.text();
    expect(verdictText).toMatch(/"verdict":"otp_code","otpCode":"\d{6}","validUntil":"/);
    expect(verdictText).toContain('event: complete');
    await expect
      .poll(() => eventText)
      .toMatch(new RegExp(`"type":"session\\.verdict","sessionId":"${session.session_id}"`));
    abort.abort();
    await reading;
  });
});
