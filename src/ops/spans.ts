/**
 * Domain spans: the one call the domain makes for tracing (`inSpan('latchkey.session.open', …)`).
 *
 * This module imports nothing. Until `src/ops/telemetry.ts` installs a runner (only when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set), `inSpan` just calls the function: tracing costs nothing
 * and neither the OpenTelemetry SDK nor its API is loaded.
 *
 * Attributes are ids, channels and outcomes only — never a code, a link or a message body (the
 * same rule as the logs).
 */

export type SpanAttributes = Record<string, string | number | boolean | null | undefined>;

export type SpanRunner = <T>(
  name: string,
  attributes: SpanAttributes,
  fn: () => Promise<T>,
) => Promise<T>;

const untraced: SpanRunner = (_name, _attributes, fn) => fn();
let runner: SpanRunner = untraced;

/** Runs `fn` inside a span named `name` (a child of the active span) when tracing is on. */
export function inSpan<T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>) {
  return runner(name, attributes, fn);
}

/** Called once by the telemetry bootstrap; `null` puts the untraced runner back. */
export function installSpanRunner(next: SpanRunner | null) {
  runner = next ?? untraced;
}
