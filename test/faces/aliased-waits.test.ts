/**
 * One wait per GraphQL operation (issue 11, hardening §4): aliased `waitForVerdict` fields would
 * run one after another and hold a connection for their summed timeouts, so an operation with
 * more than one is refused before anything runs, over HTTP and over WebSocket.
 */
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { graphql, rest } from '../helpers/faces.ts';
import { apiKey, newAccount, withKey } from '../helpers/principals.ts';

let t: TestApp;
let key: string;
let sessionId: string;
beforeAll(async () => {
  t = await startTestApp();
  key = await apiKey(t, await newAccount(t));
  const opened = await rest(t, 'POST', '/v1/sessions', key, { channel: 'email_otp' });
  expect(opened.status).toBe(201);
  sessionId = opened.body.session_id;
});
afterAll(() => t?.stop());

const threeWaits = (timeout: number) => `mutation($id: ID!) {
  a: waitForVerdict(sessionId: $id, timeout: ${timeout}) { verdict }
  b: waitForVerdict(sessionId: $id, timeout: ${timeout}) { verdict }
  c: waitForVerdict(sessionId: $id, timeout: ${timeout}) { verdict }
}`;

describe('over HTTP', () => {
  test('an operation with three aliased waits is refused with query_too_complex and nothing runs', async () => {
    // 300 s each: were they run, this request would hold its connection for 15 minutes.
    const answer = await graphql(t, key, threeWaits(300), { id: sessionId });
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toHaveLength(1);
    expect(answer.body.errors[0]).toMatchObject({
      message:
        'This operation exceeds the limit of one waitForVerdict per operation (it has 3): send one wait per request.',
      extensions: { code: 'query_too_complex' },
    });
  });

  test('waits hidden in fragments and inline fragments count too', async () => {
    const answer = await graphql(
      t,
      key,
      `mutation($id: ID!) {
        ...W
        ... on Mutation { second: waitForVerdict(sessionId: $id, timeout: 300) { verdict } }
      }
      fragment W on Mutation { first: waitForVerdict(sessionId: $id, timeout: 300) { verdict } }`,
      { id: sessionId },
    );
    expect(answer.body.errors[0].extensions.code).toBe('query_too_complex');
    expect(answer.body.data).toBeUndefined();
  });

  test('one wait per operation still runs, and the same field repeated under one key is one wait', async () => {
    const single = await graphql(
      t,
      key,
      'mutation($id: ID!) { waitForVerdict(sessionId: $id, timeout: 0) { verdict } }',
      { id: sessionId },
    );
    expect(single.body).toEqual({ data: { waitForVerdict: { verdict: 'timeout' } } });

    // GraphQL merges fields with the same response key into one execution.
    const merged = await graphql(
      t,
      key,
      `mutation($id: ID!) {
        w: waitForVerdict(sessionId: $id, timeout: 0) { verdict }
        w: waitForVerdict(sessionId: $id, timeout: 0) { sessionId }
      }`,
      { id: sessionId },
    );
    expect(merged.body).toEqual({ data: { w: { verdict: 'timeout', sessionId } } });
  });
});

describe('over WebSocket', () => {
  test('an operation with aliased waits sent over graphql-ws is refused with query_too_complex', async () => {
    const client = createClient({
      url: `${t.baseUrl.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: withKey(key),
      retryAttempts: 0,
    });
    const outcome = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query: threeWaits(300), variables: { id: sessionId } },
        { next: () => {}, error: resolve, complete: () => resolve('completed') },
      );
    });
    expect(outcome).toEqual([
      expect.objectContaining({ extensions: { code: 'query_too_complex' } }),
    ]);
    await client.dispose();
  });
});
