/**
 * Cross-origin access (decisions.md "Cross-origin access"): browser apps on the origins in
 * `CORS_ORIGINS` may call `/graphql`, `/v1` and `/mcp` with credentials in headers. Everything
 * else (the OAuth server, the console, ingest) grants no cross-origin access: the console relies
 * on same-site cookies and CSRF tokens, and ingest is server-to-server.
 *
 * Invariants: the allowed origins are a fixed list, echoed back one at a time (never `*`, which
 * browsers refuse with credentials anyway); a request from any other origin gets no
 * `Access-Control-Allow-Origin`, so the browser withholds the answer; unset, the plugin is not
 * even registered. `Vary: Origin` keeps shared caches from mixing answers across origins.
 */
import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** The paths browser apps may call cross-origin. */
const scoped = /^\/(graphql|v1|mcp)(\/|\?|$)/;

/** Request headers a cross-origin caller may send (the MCP SDK adds its protocol version). */
export const corsAllowedHeaders = [
  'Authorization',
  'x-api-key',
  'Idempotency-Key',
  'Content-Type',
  'mcp-protocol-version',
];

/** Answer headers a cross-origin caller may read (rate limits, challenges, tracing). */
const exposedHeaders = ['Retry-After', 'WWW-Authenticate', 'x-request-id', 'Location'];

export async function registerCors(server: FastifyInstance, origins: readonly string[]) {
  if (origins.length === 0) return;
  const allowed: FastifyCorsOptions = {
    origin: [...origins],
    credentials: true,
    methods: ['GET', 'POST', 'DELETE'],
    allowedHeaders: corsAllowedHeaders,
    exposedHeaders,
    // Browsers cap this (Chromium at 2 h); 10 min keeps a changed CORS_ORIGINS quick to apply.
    maxAge: 600,
  };
  await server.register(fastifyCors, {
    hideOptionsRoute: true,
    delegator: (request: FastifyRequest, callback) =>
      callback(null, scoped.test(request.url) ? allowed : { origin: false }),
  });
}
