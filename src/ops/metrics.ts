/**
 * Prometheus metrics: request latency by route, the process's default metrics (which include
 * event-loop lag), on a registry of the app's own so several apps in one process (tests) never
 * collide.
 *
 * `nodejs_gc_duration_seconds` is our own, under prom-client's name, labels and buckets: prom-client
 * 15.1.3 records only the first collection of each batch its observer is handed, and collections
 * come in batches under load. Its histogram showed 6 scavenges and no full collection where 20
 * and 2 had run (bench/results/throughput.md, session 10).
 */

import { constants, PerformanceObserver } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

/** Every collection of the process, by kind, into `registry` until the app closes. */
function registerGcHistogram(app: FastifyInstance, registry: Registry) {
  const name = 'nodejs_gc_duration_seconds';
  registry.removeSingleMetric(name);
  const histogram = new Histogram({
    name,
    help: 'Garbage collection duration by kind, one of major, minor, incremental or weakcb.',
    labelNames: ['kind'] as const,
    buckets: [0.001, 0.01, 0.1, 1, 2, 5],
    registers: [registry],
  });
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const { detail } = entry as PerformanceEntry & { detail?: { kind?: number } };
      const kind = GC_KINDS[detail?.kind ?? -1];
      if (kind) histogram.observe({ kind }, entry.duration / 1000);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  app.addHook('onClose', (_instance, done) => {
    observer.disconnect();
    done();
  });
}

export function registerMetrics(app: FastifyInstance) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  registerGcHistogram(app, registry);
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
