/**
 * The host's error handler: errors on the machine paths (/v1, /graphql's HTTP errors, /mcp,
 * ingest, health) become problem+json from the error registry. Unexpected errors are logged with
 * their stack for us and masked as `internal_error` for the client.
 *
 * It is one of five, one per wire format, each scoped to its own plugin: this one (problem+json);
 * the console's (src/console/routes.ts: an HTML page with the same code); and three with OAuth-style
 * bodies that their RFCs fix: the authorization server's mount (src/auth/provider-mount.ts, RFC 6749
 * `error`/`error_description` for what fails before oidc-provider sees the request), agent
 * registration (src/auth/registration-routes.ts, the same shape) and security-event intake
 * (src/auth/security-events.ts, RFC 8935 `err`/`description`).
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors/index.ts';
import { sendProblem, toAppError } from './problem.ts';

export function registerErrorHandling(server: FastifyInstance) {
  server.setErrorHandler((error, request, reply) => {
    const { error: appError, unexpected } = toAppError(error);
    if (unexpected) request.log.error({ err: error }, 'unexpected error');
    else if (appError.cause !== undefined && appError.code === 'service_unavailable') {
      // An outage (database or Redis unreachable): worth an operator's attention, not a stack.
      request.log.warn({ code: appError.code, cause: String(appError.cause) }, 'dependency down');
    } else request.log.info({ code: appError.code }, 'request refused');
    return sendProblem(reply, appError);
  });
  server.setNotFoundHandler((_request, reply) => sendProblem(reply, new AppError('not_found')));
}
