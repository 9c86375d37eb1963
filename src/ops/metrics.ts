/**
 * Prometheus metrics: request latency by route, the process's default metrics (which include
 * event-loop lag), on a registry of the app's own so several apps in one process (tests) never
 * collide.
 */
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export function registerMetrics(app: FastifyInstance) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10, 60],
    registers: [registry],
  });

  // Each label set's child, looked up once: prom-client hashes the labels on every `labels()`
  // call, a measurable share of a short request's CPU (issue 16). The sets are few (method ×
  // route template × status).
  const children = new Map<string, { observe(value: number): void }>();
  app.addHook('onResponse', (request, reply, done) => {
    // The route template, never the raw URL: ids in paths would explode the label set.
    const route = request.routeOptions.url ?? 'unmatched';
    const status = String(reply.statusCode);
    const key = `${request.method} ${status} ${route}`;
    let child = children.get(key);
    if (!child) {
      child = latency.labels(request.method, route, status);
      children.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', { logLevel: 'warn' }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });

  return registry;
}
