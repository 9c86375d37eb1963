/**
 * The traced implementation behind src/domain/spans.ts, loaded by src/ops/telemetry.ts only.
 *
 * - A span per domain operation, a child of whatever span is active (the HTTP request's), made
 *   active itself so the operation's queries and events nest under it. A failed operation marks
 *   its span as an error with the error's stable code, never its message (which may quote input).
 * - The HTTP server span is renamed `POST /v1/sessions/:id/wait` (the route, not the URL, so ids
 *   do not make every name unique) and carries `http.route` and the request id that the logs
 *   carry too (`latchkey.request_id`), so a log line leads to its trace and back.
 */
import { SpanStatusCode, trace } from '@opentelemetry/api';
import type { SpanAttributes, Tracing } from '../domain/spans.ts';

export function domainTracing(): Tracing {
  const tracer = trace.getTracer('latchkey');
  return {
    run: (name, attributes, fn) =>
      tracer.startActiveSpan(name, { attributes: defined(attributes) }, async (span) => {
        try {
          return await fn();
        } catch (error) {
          const code = (error as { code?: unknown }).code;
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: typeof code === 'string' ? code : 'internal_error',
          });
          throw error;
        } finally {
          span.end();
        }
      }),
    annotateRequest(method, route, requestId) {
      const span = trace.getActiveSpan();
      if (!span) return;
      span.setAttribute('latchkey.request_id', requestId);
      if (route) {
        span.updateName(`${method} ${route}`);
        span.setAttribute('http.route', route);
      }
    },
  };
}

function defined(attributes: SpanAttributes): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined) out[key] = value;
  }
  return out;
}
