/**
 * The waiters of this instance.
 *
 * - Shutdown: `close()` ends every wait (`service_unavailable`; the caller waits again on another
 *   instance) and refuses new ones, so the HTTP server's graceful close is not held up by
 *   minutes-long waits.
 * - Hand-off: waiters are indexed by the address their session holds (number or inbox), so the
 *   ingest of a message for that address can claim the verdict for the first free waiter in the
 *   very statement that stores it (born consumed: one write and one commit instead of two), then
 *   hand it over in memory. A reservation is exclusive; `fulfil` returns false when the waiter
 *   has meanwhile finished (timed out, got another verdict, was aborted), and the ingest then
 *   undoes the claim and announces the verdict as usual — so a claimed verdict is never stranded.
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '../../errors/index.ts';
import type { DeliveredVerdict } from './delivered.ts';

/** One waiting caller, as the registry sees it. */
export class LocalWaiter {
  readonly sessionId: string;
  /** Written to `verdict.consumed_by`: unique per wait. */
  readonly consumer: string;
  address: string | null = null;
  settled = false;
  reserved = false;
  /** Set by the registry's `close()`: the wait ends with `service_unavailable`. */
  shuttingDown = false;
  readonly #onHandoff: (verdict: DeliveredVerdict) => void;
  readonly #onShutdown: () => void;

  /**
   * `onShutdown` is called (once) when the registry closes; a plain callback rather than an
   * AbortController, whose signal and listener map every pending wait would hold (issue 16).
   */
  constructor(
    sessionId: string,
    credentialId: string,
    onHandoff: (v: DeliveredVerdict) => void,
    onShutdown: () => void = () => {},
  ) {
    this.sessionId = sessionId;
    this.consumer = `wait:${credentialId}:${randomBytes(6).toString('base64url')}`;
    this.#onHandoff = onHandoff;
    this.#onShutdown = onShutdown;
  }

  /** Ends the wait for a shutdown. */
  shutdown() {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    this.#onShutdown();
  }

  /** Gives a verdict claimed for this waiter; false when it is no longer waiting. */
  fulfil(verdict: DeliveredVerdict): boolean {
    this.reserved = false;
    if (this.settled) return false;
    this.#onHandoff(verdict);
    return true;
  }

  cancel() {
    this.reserved = false;
  }
}

export class WaiterRegistry {
  #closing = false;
  readonly #active = new Set<LocalWaiter>();
  readonly #byAddress = new Map<string, Set<LocalWaiter>>();

  /** How many waits are in progress on this instance. */
  get size() {
    return this.#active.size;
  }

  /** Registers a wait; it is aborted on shutdown. */
  enter(waiter: LocalWaiter) {
    if (this.#closing) {
      throw new AppError('service_unavailable', 'The service is restarting; wait again');
    }
    this.#active.add(waiter);
  }

  /** Indexes the waiter under the address its session holds now (again after a reroute). */
  watch(waiter: LocalWaiter, address: string) {
    this.#unwatch(waiter);
    waiter.address = address;
    const set = this.#byAddress.get(address) ?? new Set<LocalWaiter>();
    this.#byAddress.set(address, set);
    set.add(waiter);
  }

  leave(waiter: LocalWaiter) {
    waiter.settled = true;
    this.#unwatch(waiter);
    this.#active.delete(waiter);
  }

  /** The first free waiter on `address`, reserved for a hand-off; null when there is none. */
  reserve(address: string): LocalWaiter | null {
    for (const waiter of this.#byAddress.get(address) ?? []) {
      if (!waiter.reserved && !waiter.settled) {
        waiter.reserved = true;
        return waiter;
      }
    }
    return null;
  }

  close() {
    this.#closing = true;
    for (const waiter of this.#active) waiter.shutdown();
  }

  #unwatch(waiter: LocalWaiter) {
    if (waiter.address === null) return;
    const set = this.#byAddress.get(waiter.address);
    set?.delete(waiter);
    if (set?.size === 0) this.#byAddress.delete(waiter.address);
    waiter.address = null;
  }
}
