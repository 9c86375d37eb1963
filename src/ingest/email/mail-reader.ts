/**
 * The mail reader: a pool of worker threads (tinypool) that parse each inbound email and extract
 * its code or link (mail-worker.ts), once per message, off the event loop, within a time budget.
 *
 * Why: one crafted email (200,000 nested `<div>`, a URL followed by thousands of `)`) used to
 * block the event loop for seconds, freezing `/healthz`, every wait and every other verdict
 * (issue 11). Here the worst a message can do is hold one worker for EXTRACTION_BUDGET_MS.
 *
 * - The pool has up to EXTRACTION_THREADS workers (the cores by default), one kept warm; tasks beyond
 *   that queue, and the queue is bounded by SMTP_MAX_CLIENTS (one message per connection at a time).
 * - The budget starts when the worker starts the message (it says so on a port): queueing behind
 *   other mail does not count. Past the budget the worker is terminated (tinypool replaces it) and
 *   the outcome is `over_budget`: the caller stores the message as "no code" and it is logged.
 * - A worker that runs out of its heap (WORKER_HEAP_MB) is the message's doing too: `unparseable`.
 * - `latchkey_extraction_seconds{outcome}` observes every message's time in the worker.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Histogram } from 'prom-client';
import Tinypool from 'tinypool';
import type { DomainLog } from '../../domain/context.ts';
import type { Extraction } from '../../extract/index.ts';
import type { MailOutcome, MailTask } from './mail-worker.ts';

export type ReadOutcome = MailOutcome | { kind: 'over_budget' };

export interface MailReaderOptions {
  /** Worker threads; the machine's cores by default. */
  threads?: number;
  /** Milliseconds one message may run in a worker. */
  budgetMs: number;
  log: DomainLog;
}

/** What a message that ran out of budget is stored with: nothing found, nothing to deliver. */
export const NO_CODE: Extraction = Object.freeze({
  otp_code: null,
  magic_link: null,
  webauthn_required: false,
  confidence: 0,
  alternatives: [],
});

const WARM_UP_MESSAGE = Buffer.from('Subject: warm-up\r\n\r\nYour code is 123456\r\n');

/** A 1 MiB message parses in a few MiB; this bounds a worker a message makes balloon. */
const WORKER_HEAP_MB = 256;

export class MailReader {
  /** Registered on the app's metrics registry (ops/metrics.ts) by app.ts. */
  readonly histogram = new Histogram({
    name: 'latchkey_extraction_seconds',
    help: 'Time an inbound email spent being parsed and searched for a code or link, by outcome',
    labelNames: ['outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5],
    registers: [],
  });
  readonly threads: number;
  readonly #pool: Tinypool;
  readonly #budgetMs: number;
  readonly #log: DomainLog;

  constructor(options: MailReaderOptions) {
    this.threads = options.threads ?? availableParallelism();
    this.#budgetMs = options.budgetMs;
    this.#log = options.log;
    this.#pool = new Tinypool({
      filename: new URL('./mail-worker.ts', import.meta.url).href,
      // One always warm (its modules cost ~0.4 s of CPU to load); the others start when mail
      // queues and stay for a minute. Loading is not counted in any message's budget.
      minThreads: 1,
      maxThreads: this.threads,
      idleTimeout: 60_000,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
  }

  /**
   * Resolves once the warm worker has loaded the parser and the extractor and read a message, so
   * the first real mail waits for no module loading; rejects when the worker module cannot load,
   * which start-up should report rather than the first email.
   */
  async warmUp(): Promise<void> {
    const { port1, port2 } = new MessageChannel();
    try {
      const task: MailTask = { raw: WARM_UP_MESSAGE, started: port2 };
      const outcome: MailOutcome = await this.#pool.run(task, { transferList: [port2] });
      if (outcome.kind !== 'read') throw new Error('the mail worker could not read a message');
    } finally {
      port1.close();
    }
  }

  /** Parses and extracts `raw` in a worker; rejects only when the pool itself fails. */
  async read(raw: Buffer): Promise<ReadOutcome> {
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    let startedAt = performance.now();
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    port1.once('message', () => {
      if (settled) return;
      startedAt = performance.now();
      timer = setTimeout(() => abort.abort(), this.#budgetMs);
    });
    const task: MailTask = { raw, started: port2 };
    try {
      const outcome: MailOutcome = await this.#pool.run(task, {
        transferList: [port2],
        signal: abort.signal,
      });
      this.#observe(outcome.kind, startedAt);
      if (outcome.kind === 'unparseable') {
        this.#log.warn({ bytes: raw.length, reason: outcome.reason }, 'email cannot be parsed');
      }
      return outcome;
    } catch (error) {
      if (abort.signal.aborted) {
        this.#observe('over_budget', startedAt);
        this.#log.warn(
          { bytes: raw.length, budgetMs: this.#budgetMs },
          'email extraction over budget: stored without a code',
        );
        return { kind: 'over_budget' };
      }
      if ((error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        this.#observe('unparseable', startedAt);
        this.#log.warn({ bytes: raw.length }, 'email cannot be parsed: worker out of memory');
        return { kind: 'unparseable', reason: 'out of memory' };
      }
      throw error;
    } finally {
      settled = true;
      clearTimeout(timer);
      port1.close();
    }
  }

  #observe(outcome: ReadOutcome['kind'], startedAt: number) {
    this.histogram.labels(outcome).observe((performance.now() - startedAt) / 1000);
  }

  /** Ends the workers; a message still being read is abandoned (its SMTP client gets no 250). */
  close(): Promise<void> {
    return this.#pool.destroy();
  }
}
