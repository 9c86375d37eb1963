/** The faces bench's memory readings: server RSS and V8 heap per idle waiting client. */
import { readFileSync } from 'node:fs';
import { armWait, type BenchSession, subscribe } from './clients.ts';
import type { Server } from './server.ts';
import { MEMORY_SAMPLES, median, SETTLE_MS, sleep, withTimeout } from './settings.ts';

// ---------------------------------------------------------------------------------------------
// Memory of the server process.

export function rssBytes(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error('no VmRSS in /proc status');
  return Number(match[1]) * 1024;
}

export async function heapUsedBytes(server: Server) {
  const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
  const match = /^nodejs_heap_size_used_bytes\s+([0-9.e+]+)/m.exec(text);
  return match ? Number(match[1]) : Number.NaN;
}

export interface MemorySample {
  rss: number;
  /** Lowest and highest of the RSS readings: the noise at this step. */
  rssMin: number;
  rssMax: number;
  heapUsed: number;
}

/** Median of several RSS readings (no forced GC), then the median of three heap readings. */
export async function sampleMemory(server: Server): Promise<MemorySample> {
  const rss: number[] = [];
  for (let i = 0; i < MEMORY_SAMPLES; i++) {
    rss.push(rssBytes(server.child.pid!));
    await sleep(150);
  }
  const heap: number[] = [];
  for (let i = 0; i < 3; i++) {
    heap.push(await heapUsedBytes(server));
    await sleep(100);
  }
  return {
    rss: median(rss),
    rssMin: Math.min(...rss),
    rssMax: Math.max(...rss),
    heapUsed: median(heap),
  };
}

export const perWaiter = (before: MemorySample, after: MemorySample, n: number) => ({
  rssBytes: Math.round((after.rss - before.rss) / n),
  heapUsedBytes: Math.round((after.heapUsed - before.heapUsed) / n),
});

export async function idleMemory(
  server: Server,
  subscriberSessions: BenchSession[],
  waitSessions: BenchSession[],
) {
  await sleep(SETTLE_MS);
  const before = await sampleMemory(server);

  const subscribers = subscriberSessions.map((s) => subscribe(server, s));
  await withTimeout(
    Promise.all(subscribers.map((s) => s.connected)),
    30_000,
    'idle subscribers connecting',
  );
  await sleep(SETTLE_MS);
  const withSubscribers = await sampleMemory(server);

  const waits = waitSessions.map((s) => armWait(server, s));
  await sleep(SETTLE_MS);
  const withWaits = await sampleMemory(server);

  // None of them may have been answered or failed while idle.
  const endedEarly = waits.filter((w) => w.settled()).length;

  await Promise.all(subscribers.map((s) => s.close()));
  for (const w of waits) w.abort();
  await Promise.allSettled(waits.map((w) => w.answered));
  return {
    idle: subscriberSessions.length,
    before,
    withSubscribers,
    withSubscribersAndWaits: withWaits,
    perSubscriber: perWaiter(before, withSubscribers, subscriberSessions.length),
    perWait: perWaiter(withSubscribers, withWaits, waitSessions.length),
    waitsEndedWhileIdle: endedEarly,
  };
}
