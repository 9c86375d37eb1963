/**
 * The bench client's own garbage collection. The client shares the machine with the service, and
 * it times each request on its own event loop, so a pause of the client's is counted in every
 * request in flight across it as if the service had been slow. Session 10 found the client's
 * scavenges taking 17-43 ms inside a third of the measured bursts and most of the slowest ones
 * (bench/results/throughput.md). In production the load comes from other machines.
 *
 * So a suite collects the client's garbage just before each measured window (outside it), and
 * reports the client's pauses that still fell inside each window beside the figures, so a reader
 * can tell the instrument's stalls from the service's.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// `--expose-gc` set at run time makes `gc` in a new context the collector (the suites also run
// as plain `node bench/suites/<suite>.ts`, without flags).
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const pauses: { start: number; end: number }[] = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
  }
}).observe({ entryTypes: ['gc'] });

/** A full collection of the client's heap, so a measured window starts with an empty young one. */
export function collectClientGarbage(): void {
  gc();
}

export interface ClientPauses {
  count: number;
  totalMs: number;
  longestMs: number;
}

/**
 * `const done = clientPauseWindow()`, then `done(end)`: the client's pauses between the two, `end`
 * a `performance.now()` taken when the window closed (a pause is reported to the observer a little
 * after it ends, so read the window once something else has been awaited).
 */
export function clientPauseWindow(): (to?: number) => ClientPauses {
  const from = performance.now();
  return (to = performance.now()) => {
    const inside = pauses.filter((p) => p.end > from && p.start < to);
    const lengths = inside.map((p) => Math.min(p.end, to) - Math.max(p.start, from));
    return {
      count: inside.length,
      totalMs: Math.round(lengths.reduce((a, b) => a + b, 0) * 10) / 10,
      longestMs: Math.round(Math.max(0, ...lengths) * 10) / 10,
    };
  };
}

/** The pauses of several windows together. */
export function addPauses(all: readonly ClientPauses[]): ClientPauses {
  return {
    count: all.reduce((n, p) => n + p.count, 0),
    totalMs: Math.round(all.reduce((n, p) => n + p.totalMs, 0) * 10) / 10,
    longestMs: Math.max(0, ...all.map((p) => p.longestMs)),
  };
}
