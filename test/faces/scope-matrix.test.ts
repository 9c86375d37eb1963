/**
 * The scope matrix: every /v1 route, MCP tool and GraphQL root field against every set of scopes
 * (every non-empty subset, and no credential at all), and another account's ids. The schema
 * decides; the faces must agree: without the scope, 403 `insufficient_scope` (REST, with the RFC
 * 6750 challenge), `extensions.code` (GraphQL), an `isError` result (MCP); with it, never a
 * refusal for scope. A foreign session id is indistinguishable from a missing one.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import type { Scope } from '../../src/auth/principal.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { apiKey, newAccount, scopeSets, withKey } from '../helpers/principals.ts';

let t: TestApp;
let fullKey: string;
let foreignKey: string;
let sessionId: string;
const keys = new Map<string, string>();
const label = (set: readonly Scope[]) => set.join(' ');

beforeAll(async () => {
  t = await startTestApp({ env: { FREE_TIER_MONTHLY_SESSIONS: '10000' } });
  const account = await newAccount(t);
  fullKey = await apiKey(t, account);
  for (const set of scopeSets) keys.set(label(set), await apiKey(t, account, set));
  foreignKey = await apiKey(t, await newAccount(t));
  const opened = await rest('POST', '/v1/sessions', fullKey, { channel: 'sms_otp' });
  expect(opened.status).toBe(201);
  sessionId = opened.body.session_id;
});
afterAll(() => t?.stop());

async function rest(method: string, path: string, key: string | null, body?: unknown) {
  const response = await fetch(t.baseUrl + path, {
    method,
    headers: {
      ...(key ? withKey(key) : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? JSON.parse(text) : null,
  };
}

interface Case {
  name: string;
  scope: Scope;
}

const restCases: (Case & { method: string; path: () => string; body?: unknown })[] = [
  {
    name: 'POST /v1/sessions',
    scope: 'sessions:write',
    method: 'POST',
    path: () => '/v1/sessions',
    body: { channel: 'email_otp' },
  },
  { name: 'GET /v1/sessions', scope: 'sessions:read', method: 'GET', path: () => '/v1/sessions' },
  {
    name: 'GET /v1/sessions/:id',
    scope: 'sessions:read',
    method: 'GET',
    path: () => `/v1/sessions/${sessionId}`,
  },
  {
    name: 'GET /v1/sessions/:id/messages',
    scope: 'sessions:read',
    method: 'GET',
    path: () => `/v1/sessions/${sessionId}/messages`,
  },
  {
    name: 'POST /v1/sessions/:id/wait',
    scope: 'otp:read',
    method: 'POST',
    path: () => `/v1/sessions/${sessionId}/wait`,
    body: { timeout: 0 },
  },
  {
    name: 'POST /v1/sessions/:id/reroute',
    scope: 'sessions:write',
    method: 'POST',
    path: () => '/v1/sessions/ses_missing/reroute',
  },
  {
    name: 'DELETE /v1/sessions/:id',
    scope: 'sessions:write',
    method: 'DELETE',
    path: () => '/v1/sessions/ses_missing',
  },
  { name: 'GET /v1/usage', scope: 'usage:read', method: 'GET', path: () => '/v1/usage' },
  {
    name: 'GET /v1/usage/summary',
    scope: 'usage:read',
    method: 'GET',
    path: () => '/v1/usage/summary',
  },
  { name: 'GET /v1/api-keys', scope: 'keys:manage', method: 'GET', path: () => '/v1/api-keys' },
  {
    name: 'POST /v1/api-keys',
    scope: 'keys:manage',
    method: 'POST',
    path: () => '/v1/api-keys',
    body: { name: 'made in matrix', scopes: ['keys:manage'] },
  },
  {
    name: 'DELETE /v1/api-keys/:id',
    scope: 'keys:manage',
    method: 'DELETE',
    path: () => '/v1/api-keys/key_missing',
  },
  // Customer webhooks: creations subscribe to one rare event so no delivery leaves the test.
  {
    name: 'POST /v1/webhooks',
    scope: 'webhooks:manage',
    method: 'POST',
    path: () => '/v1/webhooks',
    body: { url: 'https://example.invalid/hook', events: ['agent.revoked'] },
  },
  { name: 'GET /v1/webhooks', scope: 'webhooks:manage', method: 'GET', path: () => '/v1/webhooks' },
  {
    name: 'DELETE /v1/webhooks/:id',
    scope: 'webhooks:manage',
    method: 'DELETE',
    path: () => '/v1/webhooks/whe_missing',
  },
  {
    name: 'POST /v1/webhooks/:id/rotate-secret',
    scope: 'webhooks:manage',
    method: 'POST',
    path: () => '/v1/webhooks/whe_missing/rotate-secret',
  },
  {
    name: 'POST /v1/webhooks/:id/test',
    scope: 'webhooks:manage',
    method: 'POST',
    path: () => '/v1/webhooks/whe_missing/test',
  },
  {
    name: 'GET /v1/webhooks/:id/deliveries',
    scope: 'webhooks:manage',
    method: 'GET',
    path: () => '/v1/webhooks/whe_missing/deliveries',
  },
  {
    name: 'POST /v1/webhooks/:id/deliveries/:delivery_id/retry',
    scope: 'webhooks:manage',
    method: 'POST',
    path: () => '/v1/webhooks/whe_missing/deliveries/whd_missing/retry',
  },
  {
    name: 'GET /v1/authenticators',
    scope: 'authenticators:manage',
    method: 'GET',
    path: () => '/v1/authenticators',
  },
  {
    name: 'POST /v1/authenticators',
    scope: 'authenticators:manage',
    method: 'POST',
    path: () => '/v1/authenticators',
    body: { target: 'app.example', secret: 'JBSWY3DPEHPK3PXPJBSWY3DP' },
  },
  {
    name: 'DELETE /v1/authenticators/:id',
    scope: 'authenticators:manage',
    method: 'DELETE',
    path: () => '/v1/authenticators/aut_missing',
  },
];

describe('REST /v1', () => {
  test.each(restCases)(
    '$name without a credential is 401 with the resource-metadata challenge',
    async (c) => {
      const response = await rest(c.method, c.path(), null, c.body);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        `Bearer resource_metadata="${t.baseUrl}/.well-known/oauth-protected-resource"`,
      );
      expect(response.body.code).toBe('unauthenticated');
    },
  );

  test.each(restCases)(
    '$name against every scope set: refused exactly when $scope is missing',
    async (c) => {
      for (const set of scopeSets) {
        const response = await rest(c.method, c.path(), keys.get(label(set))!, c.body);
        if (set.includes(c.scope)) {
          expect([401, 403], `${c.name} with [${label(set)}]`).not.toContain(response.status);
        } else {
          expect(response.status, `${c.name} with [${label(set)}]`).toBe(403);
          expect(response.body.code).toBe('insufficient_scope');
          expect(response.headers.get('www-authenticate')).toBe(
            `Bearer error="insufficient_scope", scope="${c.scope}"`,
          );
        }
      }
    },
  );

  test.each(
    restCases.filter((c) => c.path().includes('ses_') || c.path().includes(`${'/v1/sessions/'}`)),
  )("$name on another account's session is 404, like a missing one", async (c) => {
    if (!c.path().includes('/v1/sessions/')) return;
    const foreign = await rest(
      c.method,
      c.path().replace('ses_missing', sessionId),
      foreignKey,
      c.body,
    );
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('not_found');
  });
});

const graphqlCases: (Case & { query: () => string })[] = [
  {
    name: 'Query.session',
    scope: 'sessions:read',
    query: () => `{ session(id: "${sessionId}") { id } }`,
  },
  {
    name: 'Query.sessions',
    scope: 'sessions:read',
    query: () => '{ sessions { edges { node { id } } } }',
  },
  {
    name: 'Query.messages',
    scope: 'sessions:read',
    query: () => `{ messages(sessionId: "${sessionId}") { edges { node { id } } } }`,
  },
  {
    name: 'Mutation.readMessages',
    scope: 'sessions:read',
    query: () => `mutation { readMessages(sessionId: "${sessionId}") { edges { node { id } } } }`,
  },
  { name: 'Query.usage', scope: 'usage:read', query: () => '{ usage { edges { node { id } } } }' },
  {
    name: 'Query.usageSummary',
    scope: 'usage:read',
    query: () => '{ usageSummary { amountDueCents } }',
  },
  { name: 'Query.apiKeys', scope: 'keys:manage', query: () => '{ apiKeys { id } }' },
  { name: 'Query.agents', scope: 'keys:manage', query: () => '{ agents { id } }' },
  {
    name: 'Mutation.openChallenge',
    scope: 'sessions:write',
    query: () => 'mutation { openChallenge(input: {channel: email_otp}) { id } }',
  },
  {
    name: 'Mutation.closeChallenge',
    scope: 'sessions:write',
    query: () => 'mutation { closeChallenge(sessionId: "ses_missing") { status } }',
  },
  {
    name: 'Mutation.rerouteChallenge',
    scope: 'sessions:write',
    query: () => 'mutation { rerouteChallenge(sessionId: "ses_missing") { previousNumber } }',
  },
  {
    name: 'Mutation.waitForVerdict',
    scope: 'otp:read',
    query: () => `mutation { waitForVerdict(sessionId: "${sessionId}", timeout: 0) { verdict } }`,
  },
  {
    name: 'Mutation.createApiKey',
    scope: 'keys:manage',
    query: () => 'mutation { createApiKey(name: "gql", scopes: [KEYS_MANAGE]) { secret } }',
  },
  {
    name: 'Mutation.deleteApiKey',
    scope: 'keys:manage',
    query: () => 'mutation { deleteApiKey(id: "key_missing") }',
  },
  {
    name: 'Query.webhookEndpoints',
    scope: 'webhooks:manage',
    query: () => '{ webhookEndpoints { id } }',
  },
  {
    name: 'Query.webhookDeliveries',
    scope: 'webhooks:manage',
    query: () => '{ webhookDeliveries(endpointId: "whe_missing") { hasMore } }',
  },
  {
    name: 'Mutation.createWebhookEndpoint',
    scope: 'webhooks:manage',
    query: () =>
      'mutation { createWebhookEndpoint(url: "https://example.invalid/gql", events: [AGENT_REVOKED]) { secret } }',
  },
  {
    name: 'Mutation.deleteWebhookEndpoint',
    scope: 'webhooks:manage',
    query: () => 'mutation { deleteWebhookEndpoint(id: "whe_missing") }',
  },
  {
    name: 'Mutation.rotateWebhookSecret',
    scope: 'webhooks:manage',
    query: () => 'mutation { rotateWebhookSecret(id: "whe_missing") { secret } }',
  },
  {
    name: 'Mutation.sendWebhookTestEvent',
    scope: 'webhooks:manage',
    query: () => 'mutation { sendWebhookTestEvent(id: "whe_missing") { id } }',
  },
  {
    name: 'Mutation.retryWebhookDelivery',
    scope: 'webhooks:manage',
    query: () =>
      'mutation { retryWebhookDelivery(endpointId: "whe_missing", deliveryId: "whd_missing") { id } }',
  },
  {
    name: 'Query.authenticators',
    scope: 'authenticators:manage',
    query: () => '{ authenticators { edges { node { id } } } }',
  },
  {
    name: 'Mutation.createAuthenticator',
    scope: 'authenticators:manage',
    query: () =>
      'mutation { createAuthenticator(input: {target: "app.example", secret: "JBSWY3DPEHPK3PXPJBSWY3DP"}) { id } }',
  },
  {
    name: 'Mutation.deleteAuthenticator',
    scope: 'authenticators:manage',
    query: () => 'mutation { deleteAuthenticator(id: "aut_missing") }',
  },
];

async function graphql(key: string | null, query: string) {
  const response = await fetch(`${t.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? withKey(key) : {}) },
    body: JSON.stringify({ query }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as {
      data?: unknown;
      errors?: { extensions: { code: string } }[];
    },
  };
}

describe('GraphQL over HTTP', () => {
  test('no credential is 401 with the resource-metadata challenge', async () => {
    const response = await graphql(null, '{ viewer { accountId } }');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('resource_metadata=');
  });

  test.each(graphqlCases)(
    '$name against every scope set: refused exactly when $scope is missing',
    async (c) => {
      for (const set of scopeSets) {
        const { body } = await graphql(keys.get(label(set))!, c.query());
        const codes = (body.errors ?? []).map((e) => e.extensions.code);
        if (set.includes(c.scope))
          expect(codes, `${c.name} with [${label(set)}]`).not.toContain('insufficient_scope');
        else expect(codes, `${c.name} with [${label(set)}]`).toEqual(['insufficient_scope']);
      }
    },
  );

  test("another account's session is not_found, like a missing one", async () => {
    const { body } = await graphql(foreignKey, `{ session(id: "${sessionId}") { id } }`);
    expect(body.errors?.[0]?.extensions.code).toBe('not_found');
    const missing = await graphql(foreignKey, '{ session(id: "ses_nope") { id } }');
    expect(missing.body.errors?.[0]?.extensions.code).toBe('not_found');
  });
});

const toolCases: (Case & { tool: string; input: () => Record<string, unknown> })[] = [
  {
    name: 'open_challenge',
    scope: 'sessions:write',
    tool: 'open_challenge',
    input: () => ({ channel: 'email_otp' }),
  },
  {
    name: 'provision_number',
    scope: 'sessions:write',
    tool: 'provision_number',
    input: () => ({}),
  },
  {
    name: 'wait_for_verdict',
    scope: 'otp:read',
    tool: 'wait_for_verdict',
    input: () => ({ session_id: sessionId, timeout: 0 }),
  },
  {
    name: 'wait_for_otp',
    scope: 'otp:read',
    tool: 'wait_for_otp',
    input: () => ({ session_id: sessionId, timeout: 0 }),
  },
  {
    name: 'get_messages',
    scope: 'sessions:read',
    tool: 'get_messages',
    input: () => ({ session_id: sessionId }),
  },
  {
    name: 'release_number',
    scope: 'sessions:write',
    tool: 'release_number',
    input: () => ({ session_id: 'ses_missing' }),
  },
  { name: 'list_numbers', scope: 'sessions:read', tool: 'list_numbers', input: () => ({}) },
];

async function mcpClient(key: string) {
  const client = new Client({ name: 'scope-matrix', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
      requestInit: { headers: withKey(key) },
    }),
  );
  return client;
}

describe('MCP tools', () => {
  test.each(toolCases)(
    '$name against every scope set: refused exactly when $scope is missing',
    async (c) => {
      for (const set of scopeSets) {
        const client = await mcpClient(keys.get(label(set))!);
        const result = (await client.callTool({
          name: c.tool,
          arguments: { input: c.input() },
        })) as { isError?: boolean; content: { text: string }[] };
        const text = result.content[0]?.text ?? '';
        if (set.includes(c.scope))
          expect(text, `${c.name} with [${label(set)}]`).not.toMatch(/^insufficient_scope/);
        else {
          expect(result.isError, `${c.name} with [${label(set)}]`).toBe(true);
          expect(text).toMatch(/^insufficient_scope: /);
        }
        await client.close();
      }
    },
  );

  test("a tool on another account's session is not_found", async () => {
    const client = await mcpClient(foreignKey);
    const result = (await client.callTool({
      name: 'get_messages',
      arguments: { input: { session_id: sessionId } },
    })) as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^not_found: /);
    await client.close();
  });
});

describe('GraphQL over WebSocket', () => {
  function subscribe(key: string | null, query: string) {
    const client = createClient({
      url: `${t.baseUrl.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: key ? { 'x-api-key': key } : {},
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => {},
    });
    const outcome = new Promise<{ error?: unknown; data?: unknown }>((resolve) => {
      client.subscribe(
        { query },
        {
          next: (value) => resolve({ data: value }),
          error: (error) => resolve({ error }),
          complete: () => resolve({}),
        },
      );
    });
    return { client, outcome };
  }

  test('a connection without a valid credential is closed with 4403', async () => {
    const { client, outcome } = subscribe(
      'lk_live_not_a_real_key_000000000000000000000000000',
      'subscription { accountEvents { type } }',
    );
    const { error } = await outcome;
    expect((error as { code?: number }).code).toBe(4403);
    await client.dispose();
  });

  test.each([
    ['accountEvents', 'sessions:read', 'subscription { accountEvents { type } }'],
    [
      'sessionVerdicts',
      'otp:read',
      () => `subscription { sessionVerdicts(sessionId: "${sessionId}") { verdict } }`,
    ],
  ] as const)(
    'Subscription.%s is refused exactly when %s is missing',
    async (_name, scope, query) => {
      const text = typeof query === 'function' ? query() : query;
      for (const set of scopeSets.filter((s) => !s.includes(scope))) {
        const { client, outcome } = subscribe(keys.get(label(set))!, text);
        const { error, data } = await outcome;
        const errors = (error ?? (data as { errors?: unknown[] })?.errors) as {
          extensions?: { code?: string };
        }[];
        expect(errors?.[0]?.extensions?.code, `[${label(set)}]`).toBe('insufficient_scope');
        await client.dispose();
      }
    },
  );

  test("a subscription to another account's session is refused as not_found", async () => {
    const { client, outcome } = subscribe(
      foreignKey,
      `subscription { sessionVerdicts(sessionId: "${sessionId}") { verdict } }`,
    );
    const { error, data } = await outcome;
    const errors = (error ?? (data as { errors?: unknown[] })?.errors) as {
      extensions?: { code?: string };
    }[];
    expect(errors?.[0]?.extensions?.code).toBe('not_found');
    await client.dispose();
  });
});
