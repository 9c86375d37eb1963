/**
 * The Redis link between instances: every instance subscribes, once and before it serves, to one
 * channel, and publishes every event there with its own origin id.
 *
 * Why one channel and not graphql-yoga's redis-event-target (a Redis SUBSCRIBE per topic): that
 * target issues SUBSCRIBE without awaiting it, so an event published in the gap between a
 * waiter's subscribe and Redis acknowledging it is silently lost — exactly the race a waiter must
 * close — and several hundred waiters would mean several hundred SUBSCRIBE/UNSUBSCRIBE round
 * trips. One confirmed subscription per instance, with local fan-out by topic, has neither
 * problem; every instance receives every event, which at these sizes (ids only) is cheap.
 *
 * Two ioredis clients, as Redis requires: a connection in subscriber mode cannot publish.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

const CHANNEL = 'latchkey:events';

interface Envelope {
  o: string;
  t: string;
  d: unknown;
}

export interface RedisLink {
  publish(type: string, detail: unknown): Promise<void>;
  close(): Promise<void>;
}

export interface RedisLinkOptions {
  url: string;
  /** An event from another instance. */
  onEvent(type: string, detail: unknown): void;
  /** The subscription came back after an interruption: events may have been missed. */
  onResync(): void;
  onError(error: Error): void;
}

export async function connectRedisLink(options: RedisLinkOptions): Promise<RedisLink> {
  const origin = randomBytes(8).toString('hex');
  const clientOptions = { lazyConnect: true, maxRetriesPerRequest: 3, connectTimeout: 5000 };
  const publisher = new Redis(options.url, clientOptions);
  const subscriber = new Redis(options.url, clientOptions);
  for (const client of [publisher, subscriber]) client.on('error', options.onError);

  subscriber.on('message', (channel: string, message: string) => {
    if (channel !== CHANNEL) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(message) as Envelope;
    } catch {
      return;
    }
    // Our own events were dispatched locally when published.
    if (envelope.o !== origin) options.onEvent(envelope.t, envelope.d);
  });

  try {
    await Promise.all([publisher.connect(), subscriber.connect()]);
    await subscriber.subscribe(CHANNEL);
  } catch (error) {
    publisher.disconnect();
    subscriber.disconnect();
    throw error;
  }
  // ioredis resubscribes by itself after a reconnect; events sent meanwhile are gone, so tell
  // listeners to look in the database once.
  let ready = true;
  subscriber.on('close', () => {
    ready = false;
  });
  subscriber.on('ready', () => {
    if (!ready) options.onResync();
    ready = true;
  });

  return {
    async publish(type, detail) {
      await publisher.publish(CHANNEL, JSON.stringify({ o: origin, t: type, d: detail }));
    },
    async close() {
      // Unsubscribe and wait for it before quitting: quitting with a command in flight rejects
      // it with "Connection is closed" (the shutdown pitfall of docs/notes/stack-findings.md §3).
      await subscriber.unsubscribe(CHANNEL).catch(() => {});
      await Promise.allSettled([subscriber.quit(), publisher.quit()]);
    },
  };
}
