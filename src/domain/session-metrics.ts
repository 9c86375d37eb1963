/**
 * The domain's own Prometheus metrics (decisions.md "Operations"), beside the HTTP and process
 * ones: sessions opened by channel, verdicts answered to waits by kind (`timeout` included), and
 * the latency from a message being stored to its verdict reaching a waiter.
 *
 * Labels are closed sets (channels, verdict kinds), never ids, so the series count is fixed. The
 * metrics live on the app's registry (`register`), as the webhook worker's do, so several apps in
 * one process (tests) never share a series.
 */
import { Counter, Histogram, type Registry } from 'prom-client';

export class SessionMetrics {
  readonly sessionsOpened = new Counter({
    name: 'latchkey_sessions_opened_total',
    help: 'Challenge sessions opened, by channel',
    labelNames: ['channel'] as const,
    registers: [],
  });
  readonly verdicts = new Counter({
    name: 'latchkey_verdicts_total',
    help: 'Verdicts answered to waits, by verdict (otp_code, magic_link, webauthn_required, timeout)',
    labelNames: ['verdict'] as const,
    registers: [],
  });
  readonly verdictLatency = new Histogram({
    name: 'latchkey_verdict_latency_seconds',
    help: 'Seconds from a message being stored to its verdict being delivered to a waiter',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [],
  });

  register(registry: Registry) {
    registry.registerMetric(this.sessionsOpened);
    registry.registerMetric(this.verdicts);
    registry.registerMetric(this.verdictLatency);
  }

  sessionOpened(channel: string) {
    this.sessionsOpened.inc({ channel });
  }

  /** A wait answered: a verdict stored at `storedAt` (absent for a timeout), delivered at `now`. */
  verdictDelivered(verdict: string, storedAt: Date | null, now: Date) {
    this.verdicts.inc({ verdict });
    if (storedAt)
      this.verdictLatency.observe(Math.max(0, now.getTime() - storedAt.getTime()) / 1000);
  }
}
