/** The faces bench's latency phases: ingest to a subscriber's answer, ingest to a wait's answer. */
import { type Stats, stats } from '../stats.ts';
import {
  armWait,
  type BenchSession,
  deliver,
  healthz,
  nextCode,
  type Subscriber,
  subscribe,
  type Wait,
} from './clients.ts';
import type { Server } from './server.ts';
import { ANSWER_TIMEOUT_MS, ROUNDS, SETTLE_MS, sleep, withTimeout } from './settings.ts';

// ---------------------------------------------------------------------------------------------
// Latency: ingest request → answer, one delivery at a time, every other waiter pending.

export interface LatencyResult {
  pendingClients: number;
  ingestToAnswer: Stats;
  ingestAcknowledged: Stats;
  loopbackInterleaved: Stats;
}

export async function subscriptionLatency(
  server: Server,
  sessions: BenchSession[],
  warm: BenchSession[],
): Promise<LatencyResult> {
  const subscribers = [...warm, ...sessions].map((s) => subscribe(server, s));
  try {
    await withTimeout(
      Promise.all(subscribers.map((s) => s.connected)),
      30_000,
      'subscribers connecting',
    );
    await sleep(SETTLE_MS);
    const measured = subscribers.slice(warm.length);
    const answer: number[] = [];
    const ack: number[] = [];
    const loopback: number[] = [];
    const once = async (subscriber: Subscriber, record: boolean) => {
      const code = nextCode();
      const arrival = subscriber.next();
      const started = performance.now();
      const acknowledged = deliver(server, subscriber.session, code).then(
        () => performance.now() - started,
      );
      const got = await withTimeout(arrival, ANSWER_TIMEOUT_MS, 'subscriber');
      const ackMs = await acknowledged;
      if (got.code !== code) throw new Error(`subscriber got ${got.code}, expected ${code}`);
      const roundTrip = performance.now();
      await healthz(server);
      if (record) {
        answer.push(got.at - started);
        ack.push(ackMs);
        loopback.push(performance.now() - roundTrip);
      }
    };
    for (let round = 0; round < 2; round++) {
      for (const s of subscribers.slice(0, warm.length)) await once(s, false);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of measured) await once(s, true);
    }
    return {
      pendingClients: subscribers.length,
      ingestToAnswer: stats(answer),
      ingestAcknowledged: stats(ack),
      loopbackInterleaved: stats(loopback),
    };
  } finally {
    await Promise.allSettled(subscribers.map((s) => s.close()));
  }
}

export async function waitLatency(
  server: Server,
  sessions: BenchSession[],
  warm: BenchSession[],
): Promise<LatencyResult> {
  const all = [...warm, ...sessions];
  const waits = new Map<string, Wait>(all.map((s) => [s.id, armWait(server, s)]));
  try {
    await sleep(SETTLE_MS);
    const answer: number[] = [];
    const ack: number[] = [];
    const loopback: number[] = [];
    const once = async (session: BenchSession, record: boolean, rearm: boolean) => {
      const wait = waits.get(session.id)!;
      const code = nextCode();
      const started = performance.now();
      const acknowledged = deliver(server, session, code).then(() => performance.now() - started);
      const got = await withTimeout(wait.answered, ANSWER_TIMEOUT_MS, 'wait');
      const ackMs = await acknowledged;
      if (got.verdict !== 'otp_code' || got.code !== code) {
        throw new Error(`wait got ${got.verdict} ${got.code}, expected ${code}`);
      }
      if (rearm) waits.set(session.id, armWait(server, session));
      const roundTrip = performance.now();
      await healthz(server);
      if (record) {
        answer.push(got.at - started);
        ack.push(ackMs);
        loopback.push(performance.now() - roundTrip);
      }
    };
    for (let round = 0; round < 2; round++) {
      for (const s of warm) await once(s, false, true);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of sessions) await once(s, true, round < ROUNDS - 1);
    }
    return {
      pendingClients: all.length,
      ingestToAnswer: stats(answer),
      ingestAcknowledged: stats(ack),
      loopbackInterleaved: stats(loopback),
    };
  } finally {
    for (const w of waits.values()) w.abort();
    await Promise.allSettled([...waits.values()].map((w) => w.answered));
  }
}
