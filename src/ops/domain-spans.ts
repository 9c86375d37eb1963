/**
 * The traced `inSpan` runner: a span per domain operation, a child of whatever span is active
 * (the HTTP request's), made active itself so the operation's queries and events nest under it.
 * Loaded by src/ops/telemetry.ts only; a failed operation marks its span as an error with the
 * error's stable code, never its message (which may quote input).
 */
import { SpanStatusCode, trace } from '@opentelemetry/api';
import type { SpanAttributes, SpanRunner } from './spans.ts';

export function domainSpanRunner(): SpanRunner {
  const tracer = trace.getTracer('latchkey');
  return (name, attributes, fn) =>
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
    });
}

function defined(attributes: SpanAttributes): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined) out[key] = value;
  }
  return out;
}
