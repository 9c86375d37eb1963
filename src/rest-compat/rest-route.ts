/**
 * The /v1 routes as data: each route names its method, path, scope (for documentation — the
 * schema enforces it), success status and the operation module it maps onto (operations/*.ts).
 * The operation's wire input is the request body (or, on GET, the query string) and its wire
 * output the response. `registerRestRoutes` turns them into Fastify routes; `openApiDocument`
 * (openapi.ts) turns the same list into `GET /openapi.json`, so the two cannot drift apart.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { DocumentNode } from 'graphql';
import type { z } from 'zod';
import {
  authenticateRequest,
  insufficientScopeChallenge,
  revocationSignal,
  withChallenge,
} from '../auth/credentials.ts';
import type { Principal, Scope } from '../auth/principal.ts';
import { AppError, validate } from '../errors/index.ts';
import { checkKey, fingerprint, type IdempotencyStore } from './idempotency.ts';
import { type Ids, noInput, type Operation } from './operation.ts';
import type { SchemaOperations } from './schema-operations.ts';

/** What a route says of itself, beside the operation it maps (the same on the spec and the route). */
interface RouteFacts {
  method: 'GET' | 'POST' | 'DELETE';
  /** Fastify path syntax, e.g. `/v1/sessions/:id`. */
  path: string;
  operationId: string;
  scope: Scope;
  summary: string;
  description?: string;
  /** The success status (200 unless said). */
  status?: number;
  /** Route-specific problem answers for OpenAPI, by status (beside the common ones). */
  problems?: Record<string, string>;
  /** Honours `Idempotency-Key` (decisions.md "Idempotency"): a repeat replays the first answer. */
  idempotent?: boolean;
}

interface RouteSpec<
  Data,
  Variables extends Record<string, unknown>,
  I extends z.ZodType,
  O extends z.ZodType,
> extends RouteFacts {
  operation: Operation<Data, Variables, I, O>;
}

/** A request's input, validated against the operation's wire input, ready to run. */
interface Prepared {
  input: unknown;
  run: (
    operations: SchemaOperations,
    principal: Principal,
    signal: AbortSignal,
  ) => Promise<unknown>;
}

export interface RestRoute extends RouteFacts {
  /** The request body's shape (the operation's input), when the route takes one. */
  body?: z.ZodType;
  /** The query string's shape (the operation's input on GET), when the route takes one. */
  query?: z.ZodType;
  /** The success body's shape: the operation's wire output. */
  response: z.ZodType;
  document: DocumentNode;
  prepare: (input: unknown, ids: Ids) => Prepared;
}

/** A route over an operation module; its input and output come from the module. */
export function restRoute<
  Data,
  Variables extends Record<string, unknown>,
  I extends z.ZodType,
  O extends z.ZodType,
>({ operation, ...spec }: RouteSpec<Data, Variables, I, O>): RestRoute {
  const input: z.ZodType = operation.input;
  const takesInput = input !== noInput;
  return {
    ...spec,
    body: takesInput && spec.method !== 'GET' ? operation.input : undefined,
    query: takesInput && spec.method === 'GET' ? operation.input : undefined,
    response: operation.output,
    document: operation.document,
    prepare: (raw, ids) => {
      const input = validate(operation.input, raw);
      return {
        input,
        run: async (operations, principal, signal) =>
          operation.toWire(
            await operations.run(
              operation.document,
              principal,
              operation.variables(input, ids),
              signal,
            ),
          ),
      };
    },
  };
}

export function registerRestRoutes(
  app: FastifyInstance,
  routes: RestRoute[],
  operations: SchemaOperations,
  idempotency?: IdempotencyStore,
) {
  for (const route of routes) {
    // A document that does not fit the running schema fails the start, not a request.
    operations.check(route.document);
    app.route<{ Params: Ids }>({
      method: route.method,
      url: route.path,
      preHandler: authenticateRequest,
      handler: async (request, reply) => {
        const params = request.params;
        const prepared = route.prepare(
          route.body
            ? request.body === undefined
              ? {}
              : request.body
            : route.query
              ? (request.query ?? {})
              : {},
          params,
        );
        if (
          !route.body &&
          request.body !== undefined &&
          request.body !== null &&
          request.method !== 'GET'
        ) {
          const empty = typeof request.body === 'object' && Object.keys(request.body).length === 0;
          if (!empty) throw new AppError('invalid_request', 'This route takes no request body');
        }
        const abort = new AbortController();
        // The caller went away before its answer was written: stop the operation (a long wait).
        // A response that was written ends with 'close' too; aborting then would do nothing but
        // build a DOMException (with its stack) per request, a measurable share of a /v1
        // request's CPU (issue 16).
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished) abort.abort();
        });
        // A credential revoked while the request runs (a wait) ends it with 401 at once.
        const revoked = revocationSignal(request, reply);
        // Answers can carry codes, links and key secrets: never stored by a cache.
        reply.header('cache-control', 'no-store');
        const key =
          route.idempotent && idempotency
            ? checkKey(request.headers['idempotency-key'])
            : undefined;
        const credential = request.principal!.credentialId;
        if (key) {
          const reservation = await idempotency!.begin(
            credential,
            key,
            fingerprint(
              `${route.method} ${route.path}`,
              params,
              route.body ? prepared.input : undefined,
            ),
          );
          if (reservation.kind === 'replay') {
            reply.header('idempotent-replayed', 'true');
            return reply.status(reservation.status).send(reservation.body);
          }
        }
        try {
          const body = await prepared.run(
            operations,
            request.principal!,
            AbortSignal.any([abort.signal, revoked]),
          );
          if (revoked.aborted) throw request.server.credentials.revoked();
          const status = route.status ?? 200;
          if (key) await idempotency!.complete(credential, key, status, body);
          return reply.status(status).send(body);
        } catch (error) {
          if (key) await idempotency!.release(credential, key);
          if (revoked.aborted) throw withChallenge(reply, request.server.credentials.revoked());
          throw scopeChallenge(reply, error);
        }
      },
    });
  }
}

/** A missing scope named by the schema gets the RFC 6750 challenge on the wire. */
function scopeChallenge(reply: FastifyReply, error: unknown): unknown {
  if (error instanceof AppError && error.code === 'insufficient_scope') {
    const scope = typeof error.extra?.scope === 'string' ? error.extra.scope : undefined;
    reply.header('www-authenticate', insufficientScopeChallenge(scope));
  }
  return error;
}
