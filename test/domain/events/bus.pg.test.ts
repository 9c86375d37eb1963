/**
 * The bus across instances through Redis: events published on one bus reach listeners and yoga
 * subscriptions on another, once each, and a bus closes cleanly. Needs LATCHKEY_TEST_REDIS_URL
 * (run with the *.pg.test.ts files, where CI provides Redis).
 */
import { describe, expect, test } from 'vitest';
import { createEventBus } from '../../../src/events/bus.ts';
import type { SessionEvent } from '../../../src/events/topics.ts';
import { startProxiedRedis } from '../../helpers/faults.ts';

const redisUrl = process.env.LATCHKEY_TEST_REDIS_URL;
if (!redisUrl) throw new Error('needs LATCHKEY_TEST_REDIS_URL');

const event = (sessionId: string, verdictId: string): SessionEvent => ({
  type: 'verdict',
  sessionId,
  verdictId,
  kind: 'otp_code',
  receivedAt: new Date(0).toISOString(),
});

describe('Redis-shared bus', () => {
  test('an event published on one instance reaches the other once, and its own listeners once', async () => {
    const a = await createEventBus({ redisUrl });
    const b = await createEventBus({ redisUrl });
    try {
      expect(a.shared && b.shared).toBe(true);
      const topic = `ses_${Math.random().toString(36).slice(2)}`;
      const onA: SessionEvent[] = [];
      const onB: SessionEvent[] = [];
      a.listen('session', topic, (e) => onA.push(e));
      const arrived = new Promise<void>((resolve) =>
        b.listen('session', topic, (e) => {
          onB.push(e);
          resolve();
        }),
      );
      await a.publish('session', topic, event(topic, 'vrd_1'));
      await arrived;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(onA).toEqual([event(topic, 'vrd_1')]);
      expect(onB).toEqual([event(topic, 'vrd_1')]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test("a yoga subscription on one instance receives what the other's pubsub publishes", async () => {
    const a = await createEventBus({ redisUrl });
    const b = await createEventBus({ redisUrl });
    try {
      const id = `acc_${Math.random().toString(36).slice(2)}`;
      const iterator = b.pubsub.subscribe('account', id)[Symbol.asyncIterator]();
      // The first next() starts the repeater, which registers its listener synchronously
      // (graphql-yoga's createPubSub over @repeaterjs): nothing to wait for before publishing.
      const next = iterator.next();
      a.pubsub.publish('account', id, { type: 'session.expired', sessionId: 's', at: 'then' });
      expect((await next).value).toEqual({ type: 'session.expired', sessionId: 's', at: 'then' });
      await iterator.return?.();
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('a resync after a broken Redis link reaches every registration once, and a stopped one never', async () => {
    const { url, proxy } = await startProxiedRedis(redisUrl);
    const bus = await createEventBus({ redisUrl: url, onError: () => {} });
    try {
      // As many registrations as pending waits on a busy instance; one function twice.
      const calls = new Map<number, number>();
      const stops = Array.from({ length: 10_000 }, (_, i) =>
        bus.onResync(() => calls.set(i, (calls.get(i) ?? 0) + 1)),
      );
      let twice = 0;
      const shared = () => twice++;
      bus.onResync(shared);
      const stopShared = bus.onResync(shared);
      stopShared();
      for (const stop of stops.filter((_, i) => i % 2)) stop();
      let resynced!: () => void;
      const done = new Promise<void>((resolve) => {
        resynced = resolve;
      });
      bus.onResync(() => resynced());
      proxy.resetConnections(); // ioredis reconnects and resubscribes
      await done;
      // The same function registered twice and stopped once is still called, once.
      expect(twice).toBe(1);
      expect(calls.size).toBe(5_000);
      expect([...calls].every(([i, n]) => i % 2 === 0 && n === 1)).toBe(true);
    } finally {
      await bus.close();
      await proxy.close();
    }
  });

  test('a bus that cannot reach Redis fails to start instead of running unshared', async () => {
    await expect(createEventBus({ redisUrl: 'redis://127.0.0.1:1' })).rejects.toThrow();
  });
});
