/**
 * GET /openapi.json: a valid OpenAPI 3.1 document (checked with @readme/openapi-parser) that
 * describes exactly the /v1 routes the server registers, each with its method, scope, path
 * parameters, request body and responses; and every documented operation is really served.
 */
import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { v1Routes as coreRoutes } from '../../src/rest-compat/v1-routes.ts';
import { webhookRoutes } from '../../src/rest-compat/webhook-routes.ts';

const v1Routes = [...coreRoutes, ...webhookRoutes];

import { startTestApp, type TestApp } from '../helpers/app.ts';
import { rest } from '../helpers/faces.ts';
import { apiKey, newAccount } from '../helpers/principals.ts';

let t: TestApp;
let key: string;
// biome-ignore lint/suspicious/noExplicitAny: the document is inspected field by field
let doc: any;

beforeAll(async () => {
  t = await startTestApp();
  key = await apiKey(t, await newAccount(t));
  const response = await fetch(`${t.baseUrl}/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  doc = await response.json();
});
afterAll(() => t?.stop());

const methods = ['get', 'post', 'put', 'patch', 'delete'];
const toOpenApi = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

/** `METHOD /path` for every operation in the document. */
const documented = () =>
  Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => methods.includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );

/** `METHOD /path` for every /v1 route Fastify registered (HEAD, added for GET, left out). */
function registeredV1() {
  const tree = t.app.server.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const found: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const path = stack.join('');
    if (!match[3] || !path.startsWith('/v1/')) continue;
    for (const method of match[3].split(', '))
      if (method !== 'HEAD') found.push(`${method} ${toOpenApi(path)}`);
  }
  return found.sort();
}

describe('GET /openapi.json', () => {
  test('validates as OpenAPI 3.1.0 with @readme/openapi-parser', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc));
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(result.specification).toBe('OpenAPI');
  });

  test('names the public base URL as its server', () => {
    expect(doc.servers).toEqual([{ url: t.baseUrl }]);
  });

  test('describes exactly the /v1 routes the server registers', () => {
    const registered = registeredV1();
    expect(registered).toContain('POST /v1/sessions');
    expect(registered).toContain('POST /v1/synthetic/sms');
    expect(documented().sort()).toEqual(registered);
  });

  test('documents every route of v1Routes with its operationId, scope and success status', () => {
    for (const route of v1Routes) {
      const operation = doc.paths[toOpenApi(route.path)]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation.operationId).toBe(route.operationId);
      expect(operation['x-required-scope']).toBe(route.scope);
      expect(Object.keys(operation.responses)).toContain(String(route.status ?? 200));
      expect(Boolean(operation.requestBody)).toBe(Boolean(route.body));
      const pathParams = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
      expect(
        (operation.parameters ?? [])
          .filter((p: { in: string }) => p.in === 'path')
          .map((p: { name: string }) => p.name),
      ).toEqual(pathParams);
    }
  });

  test('operationIds are unique', () => {
    const ids = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>)
      .flatMap((item) => Object.values(item))
      .map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('every error response is problem+json with the shared Problem schema', () => {
    type Operation = { responses: Record<string, { content?: Record<string, unknown> }> };
    for (const [path, item] of Object.entries(
      doc.paths as Record<string, Record<string, Operation>>,
    )) {
      for (const operation of Object.values(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) < 400) continue;
          expect(response.content, `${path} ${status}`).toEqual({
            'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
          });
        }
      }
    }
    expect(doc.components.schemas.Problem.required).toEqual(['type', 'title', 'status', 'code']);
  });

  test('every documented operation answers something other than 404 for its method', async () => {
    const examples: Record<string, unknown> = {
      'POST /v1/sessions': { channel: 'email_otp' },
      'POST /v1/sessions/{id}/wait': { timeout: 0 },
      'POST /v1/api-keys': { name: 'openapi probe', scopes: ['sessions:read'] },
      'POST /v1/authenticators': { target: 'probe.example', secret: 'JBSWY3DPEHPK3PXPJBSWY3DP' },
    };
    const opened = await rest(t, 'POST', '/v1/sessions', key, { channel: 'sms_otp' });
    examples['POST /v1/synthetic/sms'] = { to: opened.body.number, from: 'x', body: 'code 1234' };
    const madeKey = await rest(t, 'POST', '/v1/api-keys', key, { name: 'to delete' });
    const hook = { url: 'https://example.invalid/hook', events: ['agent.revoked'] };
    examples['POST /v1/webhooks'] = hook;
    const endpoint = await rest(t, 'POST', '/v1/webhooks', key, hook);
    const delivery = await rest(t, 'POST', `/v1/webhooks/${endpoint.body.id}/test`, key);
    const madeAuthenticator = await rest(t, 'POST', '/v1/authenticators', key, {
      target: 'to-delete.example',
      secret: 'JBSWY3DPEHPK3PXPJBSWY3DP',
    });
    const ids: Record<string, string> = {
      '/v1/sessions/{id}': opened.body.session_id,
      '/v1/api-keys/{id}': madeKey.body.id,
      '/v1/webhooks/{id}': endpoint.body.id,
      '/v1/authenticators/{id}': madeAuthenticator.body.id,
      '{delivery_id}': delivery.body.id,
    };
    const checked: string[] = [];
    // The SMS goes to the session's first number; reads before changes; the closes go last.
    const rank = (entry: string) =>
      entry.includes('synthetic')
        ? 0
        : entry.startsWith('DELETE')
          ? 3
          : entry.startsWith('GET')
            ? 1
            : 2;
    for (const entry of documented().sort((a, b) => rank(a) - rank(b))) {
      const [method, path] = entry.split(' ') as [string, string];
      const concrete = path
        .replace(
          '{id}',
          path.startsWith('/v1/api-keys')
            ? ids['/v1/api-keys/{id}']!
            : path.startsWith('/v1/webhooks')
              ? ids['/v1/webhooks/{id}']!
              : path.startsWith('/v1/authenticators')
                ? ids['/v1/authenticators/{id}']!
                : ids['/v1/sessions/{id}']!,
        )
        .replace('{delivery_id}', ids['{delivery_id}']!);
      const answer = await rest(t, method, concrete, key, examples[entry]);
      expect(answer.status, `${entry}: ${answer.text}`).not.toBe(404);
      expect(answer.status, `${entry}: ${answer.text}`).toBeLessThan(500);
      checked.push(entry);
    }
    expect(checked.length).toBe(v1Routes.length + 1);
  });
});
