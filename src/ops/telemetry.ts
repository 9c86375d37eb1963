/**
 * OpenTelemetry traces, on only when OTEL_EXPORTER_OTLP_ENDPOINT (or the traces-only
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set. `src/main.ts` imports this module dynamically and
 * only then, before it imports the app, so that the instrumented libraries are loaded after their
 * hooks exist; with the variable unset none of the SDK, exporters or instrumentations is loaded.
 *
 * One trace per request: the HTTP server span (instrumentation-http), the domain operation's span
 * (`inSpan` in src/domain/spans.ts: latchkey.session.open, latchkey.verdict.wait, …), the PostgreSQL
 * queries under it (instrumentation-pg, on the embedded database's socket as on a real server),
 * Redis commands (instrumentation-ioredis) and the verdict event's publish
 * (latchkey.verdict.publish). GraphQL's instrumentation is left out on purpose: it exports
 * documents, whose inline arguments can carry secrets (an authenticator's otpauth URI), and every
 * face's work already shows as its domain operation.
 *
 * The exporter is the SDK's own choice from the standard variables (OTEL_EXPORTER_OTLP_PROTOCOL:
 * http/protobuf by default, http/json, grpc; OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, …).
 * Metrics stay on /metrics and logs on stdout, so the SDK's metric and log exporters are off
 * unless the operator asks for them by name.
 *
 * Invariants: no span carries a code, a link, a message body, a query string's values or a
 * statement's values (literals become `?`; Redis spans carry the command name only);
 * probes (/healthz, /readyz, /metrics) are not traced; database and Redis work outside a request
 * or an operation (the sweeper's ticks) opens no trace of its own.
 */
import type { IncomingMessage } from 'node:http';

export interface Telemetry {
  /** Flushes the spans still buffered and stops exporting. */
  shutdown(): Promise<void>;
}

const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Registers the module hooks and starts the SDK. Call before the app (and so `pg`, `ioredis`,
 * `node:http`'s users) is imported.
 */
export async function startTelemetry(): Promise<Telemetry> {
  // `pg` and `ioredis` are CommonJS packages imported from ES modules (MikroORM, the event bus):
  // the in-thread module hooks let the instrumentations patch them there too.
  const { register } = await import('import-in-the-middle/register-hooks.mjs');
  register({ include: ['pg', 'ioredis'] });

  // The SDK exports traces only unless told otherwise (see the header).
  process.env.OTEL_METRICS_EXPORTER ||= 'none';
  process.env.OTEL_LOGS_EXPORTER ||= 'none';

  const [{ NodeSDK }, { HttpInstrumentation }, { PgInstrumentation }, { IORedisInstrumentation }] =
    await Promise.all([
      import('@opentelemetry/sdk-node'),
      import('@opentelemetry/instrumentation-http'),
      import('@opentelemetry/instrumentation-pg'),
      import('@opentelemetry/instrumentation-ioredis'),
    ]);
  const sdk = new NodeSDK({
    serviceName: process.env.OTEL_SERVICE_NAME || 'latchkey',
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request: IncomingMessage) =>
          UNTRACED_PATHS.has((request.url ?? '').split('?')[0]!),
        // Query strings carry one-time tokens (/console/verify?token=…, claim links): the keys
        // are kept, every value is replaced.
        startIncomingSpanHook: (request: IncomingMessage) => {
          const query = (request.url ?? '').split('?')[1];
          return query ? { 'url.query': redactedQuery(query) } : {};
        },
        // Outgoing HTTP is webhook delivery to customers' URLs (a worker's, outside any request),
        // whose query strings are the customers' secrets: not traced.
        disableOutgoingRequestInstrumentation: true,
      }),
      new PgInstrumentation({
        requireParentSpan: true,
        // MikroORM inlines parameters into the statement it sends, so the text as sent holds
        // values (addresses, hashes, webhook payloads): spans get its shape only.
        requestHook: (span, { query }) => {
          if (query.text) span.setAttribute('db.query.text', statementShape(query.text));
        },
      }),
      new IORedisInstrumentation({
        requireParentSpan: true,
        dbStatementSerializer: (command: string) => command,
      }),
    ],
  });
  sdk.start();

  const { installTracing } = await import('../domain/spans.ts');
  const { domainTracing } = await import('./domain-spans.ts');
  installTracing(domainTracing());
  return {
    async shutdown() {
      installTracing(null);
      await sdk.shutdown();
    },
  };
}

/** A query string with every value replaced: `token=REDACTED&next=REDACTED`. */
export function redactedQuery(query: string): string {
  const params = new URLSearchParams(query);
  for (const key of new Set(params.keys())) params.set(key, 'REDACTED');
  return params.toString();
}

/**
 * A statement with its literals (quoted strings, E'' strings, dollar-quoted bodies) replaced by
 * `?`: what it does, not what it carries.
 */
export function statementShape(sql: string): string {
  return sql.replace(/\$([A-Za-z_]\w*)?\$[\s\S]*?\$\1\$|'(?:[^']|'')*'/g, '?');
}
