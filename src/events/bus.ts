/**
 * The event bus: typed topics over an EventTarget that is local by default and shared across
 * instances through Redis when REDIS_URL is set.
 *
 * Invariants:
 * - `listen()` registers synchronously on a local target, and the Redis subscription (if any) was
 *   confirmed before the app served, so a listener registered before a database check cannot miss
 *   an event published after that check committed — the waiter's race is closed by construction.
 * - publishers call `publish()` only after their transaction committed (no event for a write that
 *   did not happen); the promise resolves once the event reached Redis, so the caller may mark it
 *   sent (the verdict outbox).
 * - listeners must not throw: EventTarget reports a listener's exception as uncaught.
 * - registering and removing a listener costs the same whatever the number of listeners: one
 *   topic per session (a Map lookup in EventTarget), and the resync listeners (one per pending
 *   wait) in a Set of their own.
 * The same target backs graphql-yoga's `createPubSub` (`bus.pubsub`) for GraphQL subscriptions.
 */
import { setMaxListeners } from 'node:events';
import { createPubSub, type PubSub } from 'graphql-yoga';
import { connectRedisLink, type RedisLink } from './redis-link.ts';
import { RESYNC, type TopicKey, type TopicPayload, type Topics, topicName } from './topics.ts';

export interface EventBus {
  /** Dispatches to local listeners at once, then to other instances; resolves when sent. */
  publish<K extends TopicKey>(key: K, id: string, payload: TopicPayload<K>): Promise<void>;
  /** Registers a listener synchronously; returns the function that removes it. */
  listen<K extends TopicKey>(
    key: K,
    id: string,
    listener: (payload: TopicPayload<K>) => void,
  ): () => void;
  /** Called when events may have been missed (the Redis link came back). */
  onResync(listener: () => void): () => void;
  /** graphql-yoga's typed pubsub over the same target, for subscriptions. */
  pubsub: PubSub<Topics>;
  /** Whether events cross instances (Redis) or stay in this process. */
  shared: boolean;
  close(): Promise<void>;
}

/** An EventTarget whose dispatches also go to the other instances (what yoga's pubsub calls). */
class SharedTarget extends EventTarget {
  link: RedisLink | undefined;
  onPublishError: (error: unknown) => void = () => {};

  override dispatchEvent(event: Event): boolean {
    const result = super.dispatchEvent(event);
    if (this.link) {
      this.link
        .publish(event.type, (event as CustomEvent).detail)
        .catch((error) => this.onPublishError(error));
    }
    return result;
  }

  /** Dispatches only here: for events that came from another instance. */
  dispatchLocal(type: string, detail: unknown) {
    super.dispatchEvent(new CustomEvent(type, { detail }));
  }
}

export interface EventBusOptions {
  redisUrl?: string | undefined;
  onError?: (error: unknown) => void;
}

export async function createEventBus(options: EventBusOptions = {}): Promise<EventBus> {
  const onError = options.onError ?? (() => {});
  const target = new SharedTarget();
  // Hundreds of waiters may listen at once; Node's default warning at 10 is for leaks, not this.
  setMaxListeners(0, target);
  target.onPublishError = onError;
  if (options.redisUrl) {
    target.link = await connectRedisLink({
      url: options.redisUrl,
      onEvent: (type, detail) => target.dispatchLocal(type, detail),
      onResync: () => target.dispatchLocal(RESYNC, null),
      onError,
    });
  }
  const pubsub = createPubSub<Topics>({ eventTarget: target });
  // Every pending wait registers for a resync. EventTarget keeps a type's listeners in a list
  // that addEventListener and removeEventListener walk (to drop duplicates, to find the one to
  // remove): with 10,000 waits pending, every wait's start and end walked 10,000 entries. A Set
  // of registrations, behind one listener on the target, makes both O(1).
  const resyncListeners = new Set<{ listener: () => void }>();
  target.addEventListener(RESYNC, () => {
    for (const registration of [...resyncListeners]) {
      try {
        registration.listener();
      } catch (error) {
        onError(error);
      }
    }
  });

  return {
    shared: target.link !== undefined,
    pubsub,
    async publish(key, id, payload) {
      const type = topicName(key, id);
      target.dispatchLocal(type, payload);
      await target.link?.publish(type, payload);
    },
    listen(key, id, listener) {
      const handler = (event: Event) =>
        listener((event as CustomEvent).detail as TopicPayload<typeof key>);
      const type = topicName(key, id);
      target.addEventListener(type, handler);
      return () => target.removeEventListener(type, handler);
    },
    onResync(listener) {
      // One entry per registration: the same function registered twice is called twice, and
      // each stop removes its own registration only.
      const registration = { listener };
      resyncListeners.add(registration);
      return () => resyncListeners.delete(registration);
    },
    async close() {
      const link = target.link;
      target.link = undefined;
      await link?.close();
    },
  };
}
