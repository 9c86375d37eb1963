/**
 * Hostile input on every face: malformed JSON, wrong types, unknown fields, bodies over
 * BODY_LIMIT, hostile strings in ids, cursors and texts. Each answer is a clear 4xx with a stable
 * code (problem+json on /v1, `extensions.code` on GraphQL, an `isError` result or JSON-RPC error
 * on MCP), and never a 500.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { v1Routes } from '../../src/rest-compat/v1-routes.ts';
import { webhookRoutes } from '../../src/rest-compat/webhook-routes.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { type Answer, graphql, mcpRaw, rest, toolCall } from '../helpers/faces.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

let t: TestApp;
let key: string;
let sessionId: string;

beforeAll(async () => {
  t = await startTestApp({ env: { FREE_TIER_MONTHLY_SESSIONS: '10000' } });
  key = await apiKey(t, await newAccount(t));
  const opened = await rest(t, 'POST', '/v1/sessions', key, { channel: 'sms_otp' });
  expect(opened.status).toBe(201);
  sessionId = opened.body.session_id;
});
afterAll(() => t?.stop());

const NUL = '\u0000';
const overLimit = 'x'.repeat(64 * 1024 + 1);

function expectProblem(answer: Answer, status: number, code: string) {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.body.code).toBe(code);
  expect(answer.body.status).toBe(status);
}

/** Every /v1 route the server registers: the declarative ones and the synthetic SMS sender. */
const routes = [
  ...[...v1Routes, ...webhookRoutes].map((r) => ({
    method: r.method,
    path: r.path,
    hasBody: Boolean(r.body),
  })),
  { method: 'POST', path: '/v1/synthetic/sms', hasBody: true },
];
const concrete = (path: string, id = 'ses_missing') => path.replace(':id', encodeURIComponent(id));
const name = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
const withBodies = routes.filter((r) => r.method !== 'GET');

describe('/v1: malformed JSON', () => {
  test.each(withBodies.map((r) => [name(r), r] as const))(
    '%s with a truncated JSON body is 400 invalid_request',
    async (_n, r) => {
      expectProblem(
        await rest(t, r.method, concrete(r.path), key, undefined, '{"channel": '),
        400,
        'invalid_request',
      );
    },
  );

  test.each(withBodies.map((r) => [name(r), r] as const))(
    '%s with an empty JSON body declared as JSON is 400 invalid_request',
    async (_n, r) => {
      expectProblem(
        await rest(t, r.method, concrete(r.path), key, undefined, ''),
        400,
        'invalid_request',
      );
    },
  );
});

describe('/v1: wrong types', () => {
  const cases: [string, string, string, unknown, string | undefined][] = [
    ['POST', '/v1/sessions', '', { channel: 42 }, 'channel'],
    ['POST', '/v1/sessions', '', { channel: 'carrier_pigeon' }, 'channel'],
    ['POST', '/v1/sessions', '', { target: 42 }, 'target'],
    ['POST', '/v1/sessions', '', { number_type: true }, 'number_type'],
    ['POST', '/v1/sessions', '', [{ channel: 'sms_otp' }], undefined],
    ['POST', '/v1/sessions', '', 'sms_otp', undefined],
    ['POST', '/v1/sessions', '', null, undefined],
    ['POST', '/v1/sessions/:id/wait', '', { timeout: 'soon' }, 'timeout'],
    ['POST', '/v1/sessions/:id/wait', '', { timeout: -1 }, 'timeout'],
    ['POST', '/v1/sessions/:id/wait', '', { timeout: 1e9 }, 'timeout'],
    ['POST', '/v1/api-keys', '', { name: 42 }, 'name'],
    ['POST', '/v1/api-keys', '', { scopes: 'keys:manage' }, 'scopes'],
    ['POST', '/v1/api-keys', '', { scopes: ['root'] }, 'scopes'],
    ['POST', '/v1/synthetic/sms', '', { to: 42, from: 'x', body: 'y' }, 'to'],
    ['POST', '/v1/synthetic/sms', '', { to: '+12025550100', from: 'x', body: 7 }, 'body'],
    ['POST', '/v1/webhooks', '', { url: 42 }, 'url'],
    ['POST', '/v1/webhooks', '', { url: 'https://example.invalid/', events: 'all' }, 'events'],
    ['POST', '/v1/webhooks', '', { url: 'https://example.invalid/', events: ['x'] }, 'events'],
    ['GET', '/v1/webhooks/:id/deliveries', '?limit=0', undefined, 'limit'],
    ['GET', '/v1/sessions', '?limit=abc', undefined, 'limit'],
    ['GET', '/v1/sessions', '?limit=0', undefined, 'limit'],
    ['GET', '/v1/sessions', '?limit=101', undefined, 'limit'],
    ['GET', '/v1/sessions/:id/messages', '?limit=1.5', undefined, 'limit'],
    ['GET', '/v1/usage', '?period=next-month', undefined, 'period'],
    ['GET', '/v1/usage/summary', '?period=2026-13', undefined, 'period'],
  ];
  test.each(cases)('%s %s%s with %j is 400 invalid_request naming the field', async (...c) => {
    const [method, path, query, body, field] = c;
    const raw = body === null ? 'null' : undefined;
    const answer = await rest(t, method, concrete(path) + query, key, raw ? undefined : body, raw);
    expectProblem(answer, 400, 'invalid_request');
    if (field) expect(answer.body.field.split('.')[0]).toBe(field);
  });

  test.each(
    routes.filter((r) => !r.hasBody && r.method !== 'GET').map((r) => [name(r), r] as const),
  )('%s takes no body: a non-empty one is 400 invalid_request', async (_n, r) => {
    expectProblem(
      await rest(t, r.method, concrete(r.path), key, { channel: 'sms_otp' }),
      400,
      'invalid_request',
    );
  });
});

describe('/v1: unknown fields (strict bodies and queries)', () => {
  const bodies: Record<string, unknown> = {
    'POST /v1/sessions': { channel: 'sms_otp' },
    'POST /v1/sessions/:id/wait': { timeout: 0 },
    'POST /v1/api-keys': { name: 'k' },
    'POST /v1/synthetic/sms': { to: '+12025550100', from: 'x', body: 'y' },
    'POST /v1/webhooks': { url: 'https://example.invalid/hook', events: ['agent.revoked'] },
    'POST /v1/authenticators': { target: 'hostile.example', secret: 'JBSWY3DPEHPK3PXPJBSWY3DP' },
  };
  test('every route with a body is listed here', () => {
    expect(
      routes
        .filter((r) => r.hasBody)
        .map(name)
        .sort(),
    ).toEqual(Object.keys(bodies).sort());
  });
  test.each(Object.entries(bodies))(
    '%s with an extra field is 400 invalid_request',
    async (n, b) => {
      const [method, path] = n.split(' ') as [string, string];
      const answer = await rest(t, method, concrete(path), key, {
        ...(b as object),
        is_admin: true,
      });
      expectProblem(answer, 400, 'invalid_request');
      expect(answer.body.detail).toContain('is_admin');
    },
  );
  test.each([
    '/v1/sessions',
    '/v1/sessions/:id/messages',
    '/v1/usage',
    '/v1/usage/summary',
    '/v1/authenticators',
  ])('GET %s with an unknown query parameter is 400 invalid_request', async (path) => {
    expectProblem(
      await rest(t, 'GET', `${concrete(path)}?is_admin=1`, key),
      400,
      'invalid_request',
    );
  });
});

describe('/v1: bodies over BODY_LIMIT (64 KiB)', () => {
  test.each(withBodies.map((r) => [name(r), r] as const))(
    '%s with a body over the limit is 413 payload_too_large',
    async (_n, r) => {
      expectProblem(
        await rest(t, r.method, concrete(r.path), key, { target: overLimit }),
        413,
        'payload_too_large',
      );
    },
  );
});

describe('/v1: hostile strings', () => {
  const ids: [string, string, number, string][] = [
    ['a 100-character id', `ses_${'a'.repeat(96)}`, 404, 'not_found'],
    ['a path traversal', '../../etc/passwd', 404, 'not_found'],
    ['unicode', 'ses_☃😀\u202e', 404, 'not_found'],
    ['markup', '<script>alert(1)</script>', 404, 'not_found'],
    ['SQL', "ses_' or '1'='1", 404, 'not_found'],
    ['a NUL character', `ses_${NUL}`, 400, 'invalid_request'],
  ];
  const idRoutes = routes.filter((r) => r.path.includes(':id'));
  for (const r of idRoutes) {
    test.each(ids)(`${name(r)} with %s is %i %s`, async (_label, id, status, code) => {
      const answer = await rest(
        t,
        r.method,
        concrete(r.path, id),
        key,
        r.path.endsWith('/wait') ? { timeout: 0 } : undefined,
      );
      expectProblem(answer, status, code);
      expect(answer.text).not.toContain('<script>');
    });
  }

  test.each(idRoutes.map((r) => [name(r), r] as const))(
    '%s with an id far over the path-parameter limit is refused with a 4xx, never 500',
    async (_n, r) => {
      const answer = await rest(t, r.method, concrete(r.path, 'a'.repeat(5000)), key);
      expectProblem(answer, 400, 'invalid_request');
    },
  );

  test.each([
    ['a traversal', '..%2F..%2Fetc'],
    ['markup', '%3Cscript%3E'],
    ['unicode', '%E2%98%83%F0%9F%98%80'],
  ])(
    'GET /v1/sessions with %s as the after cursor is 400 invalid_request on after',
    async (_l, after) => {
      const answer = await rest(t, 'GET', `/v1/sessions?after=${after}`, key);
      expectProblem(answer, 400, 'invalid_request');
      expect(answer.body.field).toBe('after');
      expect(answer.text).not.toContain('<script>');
    },
  );

  test.each([
    ['a NUL in a cursor', 'GET', '/v1/sessions?after=ses_%00', undefined],
    ['a NUL in a target', 'POST', '/v1/sessions', { target: `a${NUL}b` }],
    ['a NUL in a key name', 'POST', '/v1/api-keys', { name: `a${NUL}` }],
    ['an over-long cursor', 'GET', `/v1/sessions?after=${'a'.repeat(256)}`, undefined],
    ['an over-long target', 'POST', '/v1/sessions', { target: 'a'.repeat(2049) }],
    ['an over-long key name', 'POST', '/v1/api-keys', { name: 'a'.repeat(101) }],
    [
      'a NUL in a synthetic SMS body',
      'POST',
      '/v1/synthetic/sms',
      { to: '+12025550100', from: '+14155550100', body: `a${NUL}` },
    ],
    [
      'a NUL in a synthetic SMS sender',
      'POST',
      '/v1/synthetic/sms',
      { to: '+12025550100', from: `x${NUL}`, body: 'code 123456' },
    ],
    [
      'a path as target',
      'POST',
      '/v1/sessions',
      { channel: 'email_otp', target: '../../etc/passwd' },
    ],
    ['a lone dot as target', 'POST', '/v1/sessions', { channel: 'email_otp', target: '.' }],
    ['a broken percent-encoding in the path', 'GET', '/v1/sessions/%E0%A4%A', undefined],
  ])('%s is 400 invalid_request', async (_label, method, path, body) => {
    expectProblem(await rest(t, method, path, key, body), 400, 'invalid_request');
  });

  test.each(['<script>alert(1)</script>', 'javascript:alert(1)'])(
    'a target of %j is 400 invalid_request on target, not echoed as markup',
    async (target) => {
      const answer = await rest(t, 'POST', '/v1/sessions', key, { channel: 'email_otp', target });
      expectProblem(answer, 400, 'invalid_request');
      expect(answer.body.field).toBe('target');
      expect(answer.text).not.toContain('<script>');
    },
  );

  test('a unicode host name as target is accepted and kept as data', async () => {
    const target = 'bücher.example';
    const answer = await rest(t, 'POST', '/v1/sessions', key, { channel: 'email_otp', target });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(typeof answer.body.target).toBe('string');
  });
});

describe('GraphQL', () => {
  async function expectCode(query: string, code: string, variables?: Record<string, unknown>) {
    const answer = await graphql(t, key, query, variables);
    expect(answer.status).not.toBe(500);
    expect(answer.body.data ?? null).toBeNull();
    expect(answer.body.errors.length).toBeGreaterThan(0);
    expect(
      answer.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code),
    ).toEqual(answer.body.errors.map(() => code));
  }

  test('a syntax error is invalid_request', () => expectCode('{ viewer { ', 'invalid_request'));
  test('an unknown field is invalid_request', () =>
    expectCode('{ sessions { edges { node { password } } } }', 'invalid_request'));
  test('an unknown root field is invalid_request', () => expectCode('{ nope }', 'invalid_request'));
  test('a wrong-typed argument is invalid_request', () =>
    expectCode('{ sessions(first: "all") { pageInfo { hasNextPage } } }', 'invalid_request'));
  test('a wrong-typed variable is invalid_request', () =>
    expectCode(
      'query($n: Int) { sessions(first: $n) { pageInfo { hasNextPage } } }',
      'invalid_request',
      {
        n: 'lots',
      },
    ));
  test('an unknown enum value is invalid_request', () =>
    expectCode('mutation { openChallenge(input: {channel: fax}) { id } }', 'invalid_request'));
  test('a NUL in an id is invalid_request', () =>
    expectCode('query($id: ID!) { session(id: $id) { id } }', 'invalid_request', {
      id: `ses_${NUL}`,
    }));

  test('an introspection query nesting fields within fields is query_too_complex', () =>
    // graphql-js's MaxIntrospectionDepthRule: the nesting that amplifies without bound.
    expectCode(
      '{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }',
      'query_too_complex',
    ));

  test('an operation with more than 15 aliases is query_too_complex', () => {
    const fields = Array.from({ length: 16 }, (_, i) => `a${i}: viewer { __typename }`).join(' ');
    return expectCode(`{ ${fields} }`, 'query_too_complex');
  });

  test('a document of more than 2000 tokens is query_too_complex', () =>
    expectCode(`{ ${'__typename '.repeat(2001)}}`, 'query_too_complex'));

  test('a costly query (many aliased pages) is query_too_complex', () => {
    const fields = Array.from(
      { length: 60 },
      (_, i) => `a${i}: sessions(first: 100) { edges { node { id number } } }`,
    ).join(' ');
    return expectCode(`{ ${fields} }`, 'query_too_complex');
  });

  test('a query at depth 5 still runs', async () => {
    const answer = await graphql(
      t,
      key,
      `{ messages(sessionId: "${sessionId}") { edges { node { verdict { kind } } } } }`,
    );
    expect(answer.body.errors).toBeUndefined();
  });

  test('a malformed JSON body is 400 problem+json invalid_request', async () => {
    expectProblem(
      await rest(t, 'POST', '/graphql', key, undefined, '{"query": '),
      400,
      'invalid_request',
    );
  });

  test('a body without a query is invalid_request, never 500', async () => {
    const answer = await rest(t, 'POST', '/graphql', key, { variables: {} });
    expect(answer.status).toBeLessThan(500);
    expect(answer.body.errors[0].extensions.code).toBe('invalid_request');
  });

  test('a body over BODY_LIMIT is 413 payload_too_large', async () => {
    expectProblem(
      await rest(t, 'POST', '/graphql', key, { query: `{ viewer { accountId } } #${overLimit}` }),
      413,
      'payload_too_large',
    );
  });
});

describe('MCP tools', () => {
  const wrongTyped: [string, unknown][] = [
    ['open_challenge', { channel: 42 }],
    ['open_challenge', { channel: 'sms_otp', is_admin: true }],
    ['provision_number', { target: ['a'] }],
    ['wait_for_verdict', { session_id: 42, timeout: 'soon' }],
    ['wait_for_verdict', { session_id: 'ses_x', timeout: -1 }],
    ['wait_for_otp', { session_id: 'ses_x', timeout: 0, auto_reroute: 'yes' }],
    ['get_messages', { session_id: 'ses_x', limit: 'ten' }],
    ['release_number', { session_id: null }],
    ['list_numbers', { limit: 0 }],
    ['list_numbers', 'everything'],
  ];
  test.each(wrongTyped)('%s with %j is a refusal, never HTTP 500', async (tool, input) => {
    const answer = await mcpRaw(t, key, toolCall(1, tool, { input }));
    expect(answer.status).toBe(200);
    const [payload] = answer.payloads;
    expect(payload.error !== undefined || payload.result?.isError === true, answer.text).toBe(true);
  });

  test('a NUL in a session_id is an invalid_request result', async () => {
    const answer = await mcpRaw(
      t,
      key,
      toolCall(1, 'get_messages', { input: { session_id: `ses_${NUL}` } }),
    );
    expect(answer.payloads[0].result.isError).toBe(true);
    expect(answer.payloads[0].result.content[0].text).toMatch(/^invalid_request: /);
  });

  test('an unknown tool is a refusal, never HTTP 500', async () => {
    const answer = await mcpRaw(t, key, toolCall(1, 'format_disk', { input: {} }));
    expect(answer.status).toBe(200);
    const [payload] = answer.payloads;
    expect(payload.error !== undefined || payload.result?.isError === true).toBe(true);
  });

  test('a malformed JSON-RPC body is 400 invalid_request', async () => {
    const answer = await mcpRaw(t, key, '{"jsonrpc": ');
    expect(answer.status).toBe(400);
  });

  test('a body over BODY_LIMIT is 413', async () => {
    const answer = await mcpRaw(
      t,
      key,
      toolCall(1, 'open_challenge', { input: { target: overLimit } }),
    );
    expect(answer.status).toBe(413);
  });
});
