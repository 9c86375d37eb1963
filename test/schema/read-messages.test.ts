/**
 * Reading codes consumes them, so it is a mutation (issue 17 §1): `readMessages` reveals and
 * consumes, the `messages` query shows metadata only and consumes nothing, and a mutation sent
 * over HTTP GET is refused before it runs — a prefetch, a crawler or a cached link can never take a
 * code from the agent waiting for it. The enums that replaced strings keep their wire values.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { graphql, sendSms } from '../helpers/faces.ts';
import { apiKey, newAccount, withKey } from '../helpers/principals.ts';

let t: TestApp;
let key: string;

beforeAll(async () => {
  t = await startTestApp({ env: { FREE_TIER_MONTHLY_SESSIONS: '10000' } });
  key = await apiKey(t, await newAccount(t));
});
afterAll(async () => {
  await t?.stop();
});

async function data(query: string, variables?: Record<string, unknown>) {
  const answer = await graphql(t, key, query, variables);
  expect(answer.body.errors, answer.text).toBeUndefined();
  return answer.body.data;
}

/** An sms_otp session that has received `code` and holds it unconsumed. */
async function sessionWithCode(code: string): Promise<string> {
  const { openChallenge } = await data(
    'mutation { openChallenge(input: {channel: sms_otp}) { id number } }',
  );
  const sent = await sendSms(t, key, {
    to: openChallenge.number,
    from: '+14155550123',
    body: `Your verification code is ${code}`,
  });
  expect(sent.status).toBe(201);
  return openChallenge.id;
}

const waitNow = (id: string) =>
  data('mutation($id: ID!) { waitForVerdict(sessionId: $id, timeout: 0) { verdict otpCode } }', {
    id,
  }).then((d) => d.waitForVerdict);

const page = `edges { node { codesHidden verdict { kind otpCode consumedAt } } }
  pageInfo { hasNextPage }`;

describe('messages and readMessages', () => {
  test('the messages query hides the code and consumes nothing: a wait still gets it', async () => {
    const id = await sessionWithCode('482913');
    const { messages } = await data(`query($id: ID!) { messages(sessionId: $id) { ${page} } }`, {
      id,
    });
    expect(messages.edges).toEqual([
      {
        node: {
          codesHidden: true,
          verdict: { kind: 'otp_code', otpCode: null, consumedAt: null },
        },
      },
    ]);
    expect(await waitNow(id)).toEqual({ verdict: 'otp_code', otpCode: '482913' });
  });

  test('readMessages reveals the code and consumes it: a later wait times out', async () => {
    const id = await sessionWithCode('730146');
    const { readMessages } = await data(
      `mutation($id: ID!) { readMessages(sessionId: $id, first: 5) { ${page} } }`,
      { id },
    );
    expect(readMessages.pageInfo).toEqual({ hasNextPage: false });
    const [{ node }] = readMessages.edges;
    expect(node.codesHidden).toBe(false);
    expect(node.verdict.otpCode).toBe('730146');
    expect(Date.parse(node.verdict.consumedAt)).not.toBeNaN();
    expect(await waitNow(id)).toEqual({ verdict: 'timeout', otpCode: null });
  });

  test('readMessages pages like the query: first out of 1–100 is invalid_request', async () => {
    const id = await sessionWithCode('551820');
    const answer = await graphql(
      t,
      key,
      'mutation($id: ID!) { readMessages(sessionId: $id, first: 101) { edges { cursor } } }',
      { id },
    );
    expect(answer.body.errors[0].extensions.code).toBe('invalid_request');
    expect(await waitNow(id)).toEqual({ verdict: 'otp_code', otpCode: '551820' });
  });
});

describe('GET never runs a mutation', () => {
  const get = (query: string, variables: Record<string, unknown>) =>
    fetch(
      `${t.baseUrl}/graphql?${new URLSearchParams({ query, variables: JSON.stringify(variables) })}`,
      { headers: { accept: 'application/graphql-response+json', ...withKey(key) } },
    );

  test('readMessages over GET is refused with 405 and the code stays unconsumed', async () => {
    const id = await sessionWithCode('906417');
    const response = await get(
      'mutation($id: ID!) { readMessages(sessionId: $id) { edges { node { id } } } }',
      { id },
    );
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    const body = await response.json();
    expect(body.data).toBeUndefined();
    expect(body.errors).toEqual([
      {
        message: 'Can only perform a mutation operation from a POST request.',
        extensions: { code: 'method_not_allowed' },
      },
    ]);
    expect(await waitNow(id)).toEqual({ verdict: 'otp_code', otpCode: '906417' });
  });

  test('the messages query over GET answers, and still consumes nothing', async () => {
    const id = await sessionWithCode('118274');
    const response = await get(
      'query($id: ID!) { messages(sessionId: $id) { edges { node { codesHidden } } } }',
      { id },
    );
    expect(response.status).toBe(200);
    expect((await response.json()).data.messages.edges).toEqual([{ node: { codesHidden: true } }]);
    expect(await waitNow(id)).toEqual({ verdict: 'otp_code', otpCode: '118274' });
  });
});

describe('enums keep the wire values clients compare', () => {
  test('viewer kind, billing tier, close status and the timeout verdict serialize as before', async () => {
    // Test accounts are on the per-session plan (test/helpers/principals.ts).
    const { openChallenge } = await data(
      'mutation { openChallenge(input: {channel: email_otp}) { id } }',
    );
    const answer = await data(
      `mutation($id: ID!) {
        waitForVerdict(sessionId: $id, timeout: 0) { verdict }
        closeChallenge(sessionId: $id) { status }
      }`,
      { id: openChallenge.id },
    );
    expect(answer).toEqual({
      waitForVerdict: { verdict: 'timeout' },
      closeChallenge: { status: 'completed' },
    });
    expect(await data('{ viewer { kind } usageSummary { tier } }')).toEqual({
      viewer: { kind: 'api_key' },
      usageSummary: { tier: 'per_session' },
    });
  });
});
