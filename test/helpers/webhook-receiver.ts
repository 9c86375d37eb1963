/**
 * A real webhook receiver for tests: a node:http server on loopback that records every request
 * (headers and raw body, as a verifier needs them) and answers as the test says — a status, or
 * `hold` (never answer, like a hung receiver).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  headers: Record<string, string>;
  body: string;
  at: number;
}

export type Answer = number | 'hold';

export interface Receiver {
  url: string;
  port: number;
  received: ReceivedRequest[];
  /** What to answer next (a status or `hold`); a function may decide per request. */
  answer: Answer | ((request: ReceivedRequest, index: number) => Answer);
  /** Resolves once `count` requests have arrived. */
  next(count?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const waiters: { count: number; resolve: (r: ReceivedRequest[]) => void }[] = [];
  const receiver: Receiver = {
    url: '',
    port: 0,
    received: [],
    answer: 200,
    next(count = receiver.received.length + 1) {
      if (receiver.received.length >= count) return Promise.resolve(receiver.received);
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ReceivedRequest = {
        headers: Object.fromEntries(
          Object.entries(request.headers).map(([k, v]) => [k, String(v)]),
        ),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      const index = receiver.received.push(received) - 1;
      const answer =
        typeof receiver.answer === 'function' ? receiver.answer(received, index) : receiver.answer;
      for (const waiter of waiters.filter((w) => receiver.received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(receiver.received);
      }
      if (answer === 'hold') return;
      response.writeHead(answer, { 'content-type': 'text/plain' }).end(`answered ${answer}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}${path}`;
  return receiver;
}

/** Polls `check` until it returns a value (not undefined/false), or fails after `ms`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
