/**
 * Domain spans: the one call the domain makes for tracing (`inSpan('latchkey.session.open', …)`),
 * and the HTTP host's one call to name a request's span after its route. The seam lives in the
 * domain and imports nothing, so the domain never imports ops (a face); ops installs the traced
 * implementation into it.
 *
 * This module imports nothing. Until `src/ops/telemetry.ts` installs an implementation (only
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set), `inSpan` just calls the function and
 * `annotateRequestSpan` does nothing: tracing costs nothing and the OpenTelemetry SDK is not
 * loaded.
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

export interface Tracing {
  run: SpanRunner;
  /** Names the active HTTP server span `METHOD /route` and tags it with the request id. */
  annotateRequest(method: string, route: string | undefined, requestId: string): void;
}

const untraced: Tracing = {
  run: (_name, _attributes, fn) => fn(),
  annotateRequest: () => {},
};
let tracing: Tracing = untraced;

/** Runs `fn` inside a span named `name` (a child of the active span) when tracing is on. */
export function inSpan<T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>) {
  return tracing.run(name, attributes, fn);
}

/** Called once per request by the HTTP host, when its route is known. */
export function annotateRequestSpan(method: string, route: string | undefined, requestId: string) {
  tracing.annotateRequest(method, route, requestId);
}

/** Called once by the telemetry bootstrap; `null` puts the untraced implementation back. */
export function installTracing(next: Tracing | null) {
  tracing = next ?? untraced;
}
