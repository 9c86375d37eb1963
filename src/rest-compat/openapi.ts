/**
 * `GET /openapi.json`: an OpenAPI 3.1 document generated from the same route list that registers
 * the /v1 routes, with request and response schemas converted from their zod definitions.
 */
import { z } from 'zod';
import { SYNTHETIC_SMS_PATH } from '../ingest/sms/synthetic.ts';
import {
  apiKeySchema,
  messageSchema,
  sessionSchema,
  usageRecordSchema,
  verdictSchema,
  webhookDeliverySchema,
  webhookEndpointSchema,
} from './operations/fragments.ts';
import { usageSummary } from './operations/usage-summary.ts';
import type { RestRoute } from './rest-route.ts';

const problem = {
  type: 'object',
  description: 'RFC 9457 problem details with a stable machine `code` (see docs/errors.md).',
  required: ['type', 'title', 'status', 'code'],
  properties: {
    type: {
      type: 'string',
      format: 'uri',
      description: "This service's page for the code: `{base_url}/docs/errors#<code>`.",
    },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string' },
    instance: { type: 'string' },
  },
};

/**
 * The wire shapes with a name of their own: each becomes `#/components/schemas/<name>` and every
 * route that answers one refers to it, so generated clients get one type per shape. A registry of
 * this module's own, so the names do not leak into other faces' JSON Schemas (MCP).
 */
const named = z.registry<{ id: string }>();
named.add(sessionSchema, { id: 'Session' });
named.add(verdictSchema, { id: 'Verdict' });
named.add(messageSchema, { id: 'Message' });
named.add(apiKeySchema, { id: 'ApiKey' });
named.add(usageRecordSchema, { id: 'Usage' });
named.add(webhookEndpointSchema, { id: 'Webhook' });
named.add(webhookDeliverySchema, { id: 'WebhookDelivery' });
named.add(usageSummary.output, { id: 'UsageSummary' });

type Json = Record<string, unknown>;

/**
 * Timestamps are ISO 8601 strings named `…_at` on every shape; they get `format: date-time`
 * (a nullable one is `type: [string, null]` in 3.1).
 */
function markTimestamps(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) markTimestamps(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const object = node as Json;
  const properties = object.properties as Record<string, Json> | undefined;
  for (const [name, property] of Object.entries(properties ?? {})) {
    if (!name.endsWith('_at')) continue;
    const types = ([] as unknown[]).concat(property.type ?? []);
    const variants = (property.anyOf as Json[] | undefined) ?? [];
    if (types.includes('string')) property.format = 'date-time';
    for (const variant of variants) if (variant.type === 'string') variant.format = 'date-time';
  }
  for (const value of Object.values(object)) markTimestamps(value);
}

function jsonSchema(schema: z.ZodType, components: Record<string, Json>) {
  const {
    $schema: _ignored,
    $defs,
    ...rest
  } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    metadata: named,
  }) as Json;
  const rewrite = (value: Json) =>
    JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
  for (const [name, definition] of Object.entries(($defs ?? {}) as Record<string, Json>)) {
    const { id: _id, ...body } = definition;
    components[name] = rewrite(body);
    markTimestamps(components[name]);
  }
  const result = rewrite(rest);
  markTimestamps(result);
  return result;
}

/** A body every field of which is optional may be left out entirely. */
const bodyOptional = (schema: z.ZodType) =>
  schema.safeParse({}).success || schema.safeParse(undefined).success;

/** An OpenAPI parameter object: a path id, a query field, or the Idempotency-Key header. */
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: unknown;
}

const problemResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

export function openApiDocument(routes: RestRoute[], baseUrl: string, version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const components: Record<string, Json> = { Problem: problem };
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const parameters: Parameter[] = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({
      name: m[1]!,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (route.query) {
      const query = jsonSchema(route.query, components) as {
        properties?: Record<string, unknown>;
        required?: string[];
      };
      for (const [name, schema] of Object.entries(query.properties ?? {})) {
        parameters.push({
          name,
          in: 'query',
          required: query.required?.includes(name) ?? false,
          schema,
        });
      }
    }
    if (route.idempotent) {
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'Makes a retry safe for 24 h per credential: the same key and body replay the first answer; another body is `idempotency_key_reused`.',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      });
    }
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      'x-required-scope': route.scope,
      security: [{ bearer: [route.scope] }, { apiKey: [] }],
      ...(parameters.length ? { parameters } : {}),
      ...(route.body
        ? {
            requestBody: {
              required: !bodyOptional(route.body),
              content: { 'application/json': { schema: jsonSchema(route.body, components) } },
            },
          }
        : {}),
      responses: {
        [String(route.status ?? 200)]:
          route.status === 204
            ? { description: 'Done; no body' }
            : {
                description: 'Success',
                content: {
                  'application/json': { schema: jsonSchema(route.response, components) },
                },
              },
        '400': problemResponse('The request is malformed (`invalid_request`)'),
        '401': problemResponse(
          'Credentials missing or invalid (`unauthenticated`); carries WWW-Authenticate',
        ),
        '403': problemResponse('The credential lacks the scope (`insufficient_scope`)'),
        '404': problemResponse('No such resource in this account (`not_found`)'),
        ...(route.body || route.idempotent
          ? {
              '422': problemResponse(
                [
                  route.operationId === 'openChallenge'
                    ? 'The target is refused by policy (`unsupported_target`)'
                    : undefined,
                  route.idempotent
                    ? 'The Idempotency-Key was used with another body (`idempotency_key_reused`)'
                    : undefined,
                ]
                  .filter(Boolean)
                  .join('; ') || 'The request cannot be processed',
              ),
            }
          : {}),
        '429': problemResponse(
          'Rate limited (`rate_limited`, `session_limit_reached`); carries Retry-After',
        ),
        '503': problemResponse(
          'A dependency is unreachable (`service_unavailable`); carries Retry-After',
        ),
        // A route's own refusals replace the generic text of their status; an idempotent route's
        // 422 still names the reused key.
        ...Object.fromEntries(
          Object.entries(route.problems ?? {}).map(([status, text]) => [
            status,
            problemResponse(
              status === '422' && route.idempotent
                ? `${text}; the Idempotency-Key was used with another body (\`idempotency_key_reused\`)`
                : text,
            ),
          ]),
        ),
      },
    };
  }
  // Not a schema operation (registered by src/ingest/sms/synthetic.ts), but a /v1 route all the same.
  paths[SYNTHETIC_SMS_PATH] = {
    post: {
      operationId: 'sendSyntheticSms',
      summary: "Deliver an SMS to a synthetic number held by a session of the caller's account",
      description:
        "How an app under test sends to a synthetic number: the message takes the carrier's path. A number not held by one of the caller's sessions is `404` and nothing is stored.",
      'x-required-scope': 'sessions:write',
      security: [{ bearer: ['sessions:write'] }, { apiKey: [] }],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['to', 'from', 'body'],
              additionalProperties: false,
              properties: {
                to: { type: 'string', description: 'A US number in E.164' },
                from: { type: 'string', minLength: 1, maxLength: 32 },
                body: { type: 'string', minLength: 1, maxLength: 1600 },
              },
            },
          },
        },
      },
      responses: {
        '201': {
          description: 'Delivered and committed',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['message_id', 'session_id'],
                properties: { message_id: { type: 'string' }, session_id: { type: 'string' } },
              },
            },
          },
        },
        '400': problemResponse('The request is malformed (`invalid_request`)'),
        '401': problemResponse(
          'Credentials missing or invalid (`unauthenticated`); carries WWW-Authenticate',
        ),
        '403': problemResponse('The credential lacks the scope (`insufficient_scope`)'),
        '404': problemResponse('No session of this account holds the number (`not_found`)'),
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Latchkey API',
      version,
      description:
        'Challenge sessions for software agents: numbers and inboxes, received messages, and verdicts (codes and magic links).',
    },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An opaque agent access token (agt_…).',
        },
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'A live API key.' },
      },
    },
  };
}
