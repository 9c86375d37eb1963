/**
 * The one place where errors become responses. Machine paths get problem+json; console pages get
 * an HTML page with the same code (rendered by the console's own handler). Unexpected errors are
 * logged with their stack for us and masked as `internal_error` for the client.
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
