/**
 * HTTP transport limits: how long a client may take to *send* a request, how long an idle
 * keep-alive connection is kept, and how many requests one connection may carry.
 *
 * Node's own timers do the work (no hand-written socket watchdogs):
 * - `headersTimeout`: the request line and headers must arrive within HTTP_HEADERS_TIMEOUT (a
 *   slowloris client trickling header bytes, or a socket that never sends any, gets 408 and is
 *   closed);
 * - `requestTimeout`: the whole request, body included, within HTTP_BODY_TIMEOUT.
 * Both stop counting once the request has been received, so they never cut a response that takes
 * long: a `/v1` wait (up to 300 s), an SSE stream or a WebSocket (upgraded, no longer HTTP) are
 * unaffected. For the same reason there is no socket idle timeout (`connectionTimeout` stays 0):
 * a long-poll wait sends nothing until its verdict, and an idle timeout would kill it.
 */
import type { ServerOptions } from 'node:http';
import type { Config } from '../config.ts';

/** How often Node looks for requests past their timeouts; the cut comes at most this much late. */
const CHECK_INTERVAL_MS = 1000;
/**
 * Idle keep-alive connections close after 72 s: longer than the 60 s idle timeout of common load
 * balancers, so the service never closes a connection the balancer is about to reuse.
 */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;
/** A keep-alive connection is closed after this many requests, so load rebalances over time. */
const MAX_REQUESTS_PER_SOCKET = 1000;

export function transportLimits(config: Pick<Config, 'httpHeadersTimeout' | 'httpBodyTimeout'>): {
  http: ServerOptions;
  requestTimeout: number;
  connectionTimeout: number;
  keepAliveTimeout: number;
  maxRequestsPerSocket: number;
} {
  const headersTimeout = config.httpHeadersTimeout * 1000;
  const requestTimeout = config.httpBodyTimeout * 1000;
  return {
    // Node only accepts the checking interval at construction, hence the `http` options; Fastify
    // sets requestTimeout again afterwards from its own option, so both carry the same value.
    http: { headersTimeout, requestTimeout, connectionsCheckingInterval: CHECK_INTERVAL_MS },
    requestTimeout,
    connectionTimeout: 0,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    maxRequestsPerSocket: MAX_REQUESTS_PER_SOCKET,
  };
}
