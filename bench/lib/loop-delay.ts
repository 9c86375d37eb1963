/**
 * A preload for a bench's service process (`node --import <this file> src/main.ts`): the event
 * loop's delay (`perf_hooks.monitorEventLoopDelay`, 5 ms resolution) and the garbage collector's
 * pauses (`PerformanceObserver` 'gc' entries) since the last reading. The bench sends SIGUSR2; the
 * process writes the figures as JSON to BENCH_LOOP_FILE and starts a new window. Nothing of the
 * service imports this; it only observes.
 */
import { writeFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const file = process.env.BENCH_LOOP_FILE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let gcPauses: number[] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcPauses.push(entry.duration);
  }).observe({ type: 'gc' });
  let seq = 0;
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
  process.on('SIGUSR2', () => {
    const sorted = [...gcPauses].sort((a, b) => a - b);
    writeFileSync(
      file,
      JSON.stringify({
        seq: ++seq,
        loopDelayMs: {
          p50: ms(delay.percentile(50)),
          p99: ms(delay.percentile(99)),
          max: ms(delay.max),
        },
        gc: {
          pauses: sorted.length,
          totalMs: Math.round(sorted.reduce((s, d) => s + d, 0) * 100) / 100,
          maxMs: Math.round((sorted.at(-1) ?? 0) * 100) / 100,
        },
      }),
    );
    delay.reset();
    gcPauses = [];
  });
}
