/**
 * The in-process event bus: typed topics, synchronous registration, yoga's pubsub over the same
 * target, and hundreds of listeners without leak warnings.
 */
import { describe, expect, test } from 'vitest';
import { createEventBus } from '../../../src/events/bus.ts';
import type { SessionEvent } from '../../../src/events/topics.ts';

const verdict = (sessionId: string): SessionEvent => ({
  type: 'verdict',
  sessionId,
  verdictId: 'vrd_1',
  kind: 'otp_code',
  receivedAt: new Date(0).toISOString(),
});

describe('in-process bus', () => {
  test('a listener registered before a publish receives it, synchronously, on its topic only', async () => {
    const bus = await createEventBus();
    const seen: SessionEvent[] = [];
    const stop = bus.listen('session', 'ses_a', (event) => seen.push(event));
    bus.listen('session', 'ses_b', () => {
      throw new Error('wrong topic');
    });
    const published = bus.publish('session', 'ses_a', verdict('ses_a'));
    expect(seen).toEqual([verdict('ses_a')]);
    await published;
    stop();
    await bus.publish('session', 'ses_a', verdict('ses_a'));
    expect(seen).toHaveLength(1);
    expect(bus.shared).toBe(false);
    await bus.close();
  });

  test("graphql-yoga's pubsub sees the same events", async () => {
    const bus = await createEventBus();
    const iterator = bus.pubsub.subscribe('account', 'acc_1')[Symbol.asyncIterator]();
    const next = iterator.next();
    await bus.publish('account', 'acc_1', { type: 'session.closed', sessionId: 's', at: 'now' });
    expect((await next).value).toEqual({ type: 'session.closed', sessionId: 's', at: 'now' });
    await iterator.return?.();
    await bus.close();
  });

  test('five hundred listeners on one topic raise no MaxListeners warning', async () => {
    const bus = await createEventBus();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    let calls = 0;
    const stops = Array.from({ length: 500 }, () => bus.listen('session', 'busy', () => calls++));
    await bus.publish('session', 'busy', verdict('busy'));
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    for (const stop of stops) stop();
    expect(calls).toBe(500);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
    await bus.close();
  });
});
