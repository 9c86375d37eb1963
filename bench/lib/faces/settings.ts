/** The faces bench: its sizes and aims, and small helpers its parts share. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const ACCOUNTS = 10;
/** Per session phase: 300 sessions, 30 per account, on a key of their own per account. */
export const SESSIONS = 300;
/** Idle waiters of each kind for the memory measurement. */
export const IDLE = 300;
/** Warm-up sessions (not measured), spread over the accounts on a key of their own. */
export const WARM = 20;
/** Keys per account: memory subscribers, memory waits, latency subscribers, latency waits, warm-up. */
export const KEYS_PER_ACCOUNT = 5;
/** Each measured session receives this many codes in turn (the subscriptions stay open). */
export const ROUNDS = 2;
export const BASELINE_REQUESTS = 1000;
export const SETTLE_MS = 2000;
export const MEMORY_SAMPLES = 7;
export const ANSWER_TIMEOUT_MS = 15_000;
export const AIM_BYTES_PER_IDLE_WAITER = 32 * 1024;
export const SUITE_DEADLINE_MS = 170_000;

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
