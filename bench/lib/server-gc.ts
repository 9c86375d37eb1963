/**
 * The service's garbage collection over a measured window, read from its own `/metrics`
 * (prom-client's `nodejs_gc_duration_seconds`, by kind: what an operator's Prometheus sees). A
 * bench scrapes before and after a window, outside it, and reports the difference beside the
 * latencies, so a slow window shows whether the service was collecting (session 10 traced its
 * slowest bursts to major collections of the service and to the client's own; client-gc.ts).
 */
import { send } from './http.ts';

export interface GcTotals {
  /** Scavenges: count and milliseconds. */
  minor: { count: number; ms: number };
  /** Full (mark-compact) collections, with the incremental marking steps before them. */
  major: { count: number; ms: number };
}

const LINE = /^nodejs_gc_duration_seconds_(sum|count)\{kind="(\w+)"\} ([\d.e+-]+)$/;

/** The service's GC totals since it started. */
export async function serverGcTotals(baseUrl: string): Promise<GcTotals> {
  const answer = await send('GET', `${baseUrl}/metrics`, {});
  if (answer.status !== 200) throw new Error(`/metrics answered ${answer.status}`);
  const totals: GcTotals = { minor: { count: 0, ms: 0 }, major: { count: 0, ms: 0 } };
  for (const line of answer.text.split('\n')) {
    const match = LINE.exec(line);
    if (!match) continue;
    const [, field, kind, value] = match;
    // Incremental marking steps add their time to the full collection they prepare, not a count.
    const into =
      kind === 'minor'
        ? totals.minor
        : kind === 'major' || kind === 'incremental'
          ? totals.major
          : null;
    if (!into) continue;
    if (field === 'sum') into.ms += Number(value) * 1000;
    else if (kind !== 'incremental') into.count += Number(value);
  }
  return totals;
}

/** `after - before`, rounded to tenths of a millisecond. */
export function gcBetween(before: GcTotals, after: GcTotals): GcTotals {
  const diff = (a: { count: number; ms: number }, b: { count: number; ms: number }) => ({
    count: b.count - a.count,
    ms: Math.round((b.ms - a.ms) * 10) / 10,
  });
  return { minor: diff(before.minor, after.minor), major: diff(before.major, after.major) };
}
