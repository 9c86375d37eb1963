/**
 * Start: configuration, the app, listen; stop cleanly on SIGTERM or SIGINT (stop accepting, let
 * in-flight requests finish, close pools). A bad configuration exits with a one-line message.
 *
 * With OTEL_EXPORTER_OTLP_ENDPOINT set, tracing starts before the app is imported (the app is a
 * dynamic import for that reason: instrumented modules must load after their hooks); without it
 * the telemetry module is never loaded.
 */
import { ConfigError, loadConfig } from './config.ts';
import { SealedValueError } from './db/sealer.ts';
import { SealingKeyError } from './db/sealing-keys.ts';
import { telemetryWanted } from './ops/telemetry-wanted.ts';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`latchkey: configuration error: ${error.message}`);
    process.exit(78);
  }
  throw error;
}

const telemetry = telemetryWanted()
  ? await (await import('./ops/telemetry.ts')).startTelemetry()
  : null;
const { buildApp } = await import('./app.ts');

let app: Awaited<ReturnType<typeof buildApp>>;
try {
  app = await buildApp(config);
} catch (error) {
  // A key file with a loose mode, keys that do not open what the database holds, a DATA_DIR in
  // use by another process: the operator's to fix, so one line rather than a stack trace.
  if (
    error instanceof ConfigError ||
    error instanceof SealingKeyError ||
    error instanceof SealedValueError
  ) {
    console.error(`latchkey: cannot start: ${error.message}`);
    process.exit(78);
  }
  throw error;
}
await app.start();
app.server.log.info(
  { url: config.publicBaseUrl, console: config.consoleUrl, embedded: app.db.embedded },
  'latchkey started',
);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.server.log.info({ signal }, 'shutting down');
  const timer = setTimeout(() => {
    app.server.log.error('shutdown took too long; exiting');
    process.exit(1);
  }, 25_000);
  timer.unref();
  try {
    await app.stop();
    await telemetry?.shutdown();
    process.exit(0);
  } catch (error) {
    app.server.log.error({ err: error }, 'error during shutdown');
    process.exit(1);
  }
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
