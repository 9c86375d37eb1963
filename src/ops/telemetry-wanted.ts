/**
 * Whether to trace: an OTLP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT, or the
 * traces-only OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) and OTEL_SDK_DISABLED is not `true`.
 * Kept apart from src/ops/telemetry.ts so deciding loads nothing of OpenTelemetry.
 */
export function telemetryWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  return Boolean(endpoint) && env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true';
}
