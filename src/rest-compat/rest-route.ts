/**
 * The /v1 routes as data: each route names its method, path, scope (for documentation — the
 * schema enforces it), request schemas, the schema operation it maps onto, and how to shape the
 * result. `registerRestRoutes` turns them into Fastify routes; `openApiDocument` (openapi.ts)
 * turns the same list into `GET /openapi.json`, so the two cannot drift apart.
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
import type { Scope } from '../auth/principal.ts';
import { AppError, validate } from '../errors/index.ts';
import { checkKey, fingerprint, type IdempotencyStore } from './idempotency.ts';
import type { SchemaOperations } from './operations.ts';

export interface RestInput<B, Q> {
  params: Record<string, string>;
  body: B;
  query: Q;
}

export interface RestRoute<B = unknown, Q = unknown, D = Record<string, unknown>> {
  method: 'GET' | 'POST' | 'DELETE';
  /** Fastify path syntax, e.g. `/v1/sessions/:id`. */
  path: string;
  operationId: string;
  scope: Scope;
  summary: string;
  description?: string;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  /** The success status (200 unless said). */
  status?: number;
  /** The success body's shape, for OpenAPI. */
  response: z.ZodType;
  /** Route-specific problem answers for OpenAPI, by status (beside the common ones). */
  problems?: Record<string, string>;
  operation: DocumentNode;
  /** Honours `Idempotency-Key` (decisions.md "Idempotency"): a repeat replays the first answer. */
  idempotent?: boolean;
  variables: (input: RestInput<B, Q>) => Record<string, unknown>;
  result: (data: D) => unknown;
}

/** Defines a route with its types inferred from its schemas. */
export const restRoute = <B, Q, D>(route: RestRoute<B, Q, D>) => route as unknown as RestRoute;

export function registerRestRoutes(
  app: FastifyInstance,
  routes: RestRoute[],
  operations: SchemaOperations,
  idempotency?: IdempotencyStore,
) {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: route.path,
      preHandler: authenticateRequest,
      handler: async (request, reply) => {
        const input: RestInput<unknown, unknown> = {
          params: request.params as Record<string, string>,
          body: route.body
            ? validate(route.body, request.body === undefined ? {} : request.body)
            : undefined,
          query: route.query ? validate(route.query, request.query ?? {}) : undefined,
        };
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
        reply.raw.on('close', () => abort.abort());
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
            fingerprint(`${route.method} ${route.path}`, input.params, input.body),
          );
          if (reservation.kind === 'replay') {
            reply.header('idempotent-replayed', 'true');
            return reply.status(reservation.status).send(reservation.body);
          }
        }
        try {
          const data = await operations.run(
            route.operation,
            request.principal!,
            route.variables(input),
            AbortSignal.any([abort.signal, revoked]),
          );
          if (revoked.aborted) throw request.server.credentials.revoked();
          const status = route.status ?? 200;
          const body = route.result(data);
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
