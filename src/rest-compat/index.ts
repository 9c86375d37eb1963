/**
 * The three faces over the one schema: GraphQL at /graphql (HTTP, SSE and WebSocket), the /v1
 * routes with GET /openapi.json, and the MCP tools at /mcp. The /v1 routes and the tools execute
 * schema operations in-process (SchemaOperations), so scopes and tenancy are checked once, in the
 * schema, whichever face is used.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/orm.ts';
import type { ChallengeDeps } from '../domain/context.ts';
import { createGraphQL } from '../schema/server.ts';
import { IdempotencyStore } from './idempotency.ts';
import { installTools } from './mcp-tools.ts';
import { mcpRoutes } from './mcp-transport.ts';
import { openApiDocument } from './openapi.ts';
import { registerRestRoutes } from './rest-route.ts';
import { SchemaOperations } from './schema-operations.ts';
import { v1Routes } from './v1-routes.ts';
import { webhookRoutes } from './webhook-routes.ts';

export const apiVersion = '1.0.0';

export async function registerFaces(
  server: FastifyInstance,
  deps: { config: Config; db: Database; challenges: ChallengeDeps },
) {
  const services = { config: deps.config, challenge: deps.challenges };
  const operations = new SchemaOperations(deps.db.orm, services);

  const graphql = createGraphQL(server, {
    orm: deps.db.orm,
    credentials: server.credentials,
    revocations: server.revocations,
    services,
  });
  server.addHook('onClose', () => graphql.close());

  const routes = [...v1Routes, ...webhookRoutes];
  registerRestRoutes(
    server,
    routes,
    operations,
    new IdempotencyStore(deps.db.orm, deps.challenges),
  );
  const openapi = openApiDocument(routes, deps.config.publicBaseUrl, apiVersion);
  server.get('/openapi.json', async () => openapi);

  await server.register(
    mcpRoutes(
      (mcp, principal, revoked) =>
        installTools(
          mcp,
          principal,
          operations,
          (error) => server.log.error({ err: error }, 'unexpected MCP tool error'),
          revoked,
        ),
      apiVersion,
    ),
  );
}
