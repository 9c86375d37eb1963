/**
 * Revocation reaching what is already connected: a credential revoked on any instance ends, on
 * every instance, the subscriptions, streams and waits that run under it.
 *
 * - Whoever revokes (RFC 7009 revocation, a security event, the console's Disconnect, an API key's
 *   deletion) commits first, then `announceRevocation()` publishes the revoked handles on the
 *   `credential:revoked` topic (Redis carries it to the other instances; handles are ids and
 *   digests, never a usable secret).
 * - Whatever runs under a credential for longer than a request (a WebSocket, an SSE stream, a
 *   long-poll wait) registers with `RevocationWatch.watch()` under the principal's lineage (its
 *   token, key, parent key, registration) and is told at once when one of them is revoked.
 * - Safety nets for an event that never arrives (Redis interrupted, a publish that failed, a token
 *   that simply expired): after a Redis resync, and every `recheckInterval`, each watched
 *   credential is looked up again in the database (one lookup per distinct credential), and the
 *   ones that are gone are ended the same way.
 *
 * Every individual request re-checks its credential in the database anyway (credentials.ts has
 * no cache), so a revoked credential cannot start anything new; this module ends what had started.
 */
import type { EventBus } from '../events/bus.ts';
import type { Principal } from './principal.ts';
import { sha256Hex } from './secrets.ts';

/**
 * The revocation handle of an access token: its storage key (adapter.ts) with a `tok_` prefix.
 * A digest, so it may cross Redis and appear in logs; the token itself never does.
 */
export const tokenHandle = (accessToken: string) =>
  `tok_${sha256Hex(`AccessToken:${accessToken}`)}`;

/** The handles whose revocation ends this principal. */
export const lineageOf = (principal: Principal): readonly string[] =>
  principal.lineage ?? [principal.credentialId];

interface Log {
  warn(object: object, message: string): void;
}

/**
 * Publishes revoked credentials to every instance. Call after the revocation committed. A failed
 * publish is logged, not thrown: the revocation stands (every new request is refused), and the
 * other instances' periodic re-check ends what is still open there.
 */
export async function announceRevocation(
  events: EventBus,
  credentials: readonly string[],
  log?: Log,
  now = new Date(),
): Promise<void> {
  if (credentials.length === 0) return;
  try {
    await events.publish('credential', 'revoked', {
      type: 'revoked',
      credentials: [...new Set(credentials)],
      at: now.toISOString(),
    });
  } catch (error) {
    log?.warn(
      { err: error, component: 'revocation' },
      'revocation not announced to other instances',
    );
  }
}

interface Watch {
  principal: Principal;
  lineage: readonly string[];
  onRevoked: () => void;
  ended: boolean;
}

export interface RevocationWatchOptions {
  /** Whether the principal's credential is still valid (looked up in the database). */
  isLive(principal: Principal): Promise<boolean>;
  /** Milliseconds between safety-net re-checks of every watched credential. */
  recheckInterval: number;
  log?: Log;
}

/** Re-checks run a few at a time: enough to be quick, few enough to leave the pool to requests. */
const recheckConcurrency = 4;

export class RevocationWatch {
  readonly #byHandle = new Map<string, Set<Watch>>();
  readonly #options: RevocationWatchOptions;
  readonly #stop: (() => void)[] = [];
  readonly #timer: NodeJS.Timeout;
  #rechecking: Promise<void> | undefined;

  constructor(events: EventBus, options: RevocationWatchOptions) {
    this.#options = options;
    this.#stop.push(
      events.listen('credential', 'revoked', (event) => this.#revoke(event.credentials)),
      events.onResync(() => void this.recheck()),
    );
    this.#timer = setInterval(() => void this.recheck(), options.recheckInterval);
    this.#timer.unref();
  }

  /** How many connections, streams and waits are watched on this instance. */
  get size() {
    return [...this.#all()].length;
  }

  /**
   * Calls `onRevoked` once when the principal's credential (or one it derives from) is revoked.
   * Returns the release function; call it when the connection, stream or wait ends.
   */
  watch(principal: Principal, onRevoked: () => void): () => void {
    const watch: Watch = { principal, lineage: lineageOf(principal), onRevoked, ended: false };
    for (const handle of watch.lineage) {
      const set = this.#byHandle.get(handle) ?? new Set<Watch>();
      this.#byHandle.set(handle, set);
      set.add(watch);
    }
    return () => this.#release(watch);
  }

  /** A signal aborted (reason `revoked`) when the principal's credential is revoked. */
  signal(principal: Principal): { signal: AbortSignal; release: () => void } {
    const controller = new AbortController();
    const release = this.watch(principal, () => controller.abort('revoked'));
    return { signal: controller.signal, release };
  }

  /** Looks every watched credential up again and ends those that are no longer valid. */
  recheck(): Promise<void> {
    this.#rechecking ??= this.#recheckAll().finally(() => {
      this.#rechecking = undefined;
    });
    return this.#rechecking;
  }

  close() {
    clearInterval(this.#timer);
    for (const stop of this.#stop) stop();
  }

  async #recheckAll() {
    const byCredential = new Map<string, Watch[]>();
    for (const watch of this.#all()) {
      const key = watch.lineage.join(' ');
      const list = byCredential.get(key) ?? [];
      byCredential.set(key, list);
      list.push(watch);
    }
    const groups = [...byCredential.values()];
    const worker = async () => {
      for (let group = groups.pop(); group; group = groups.pop()) {
        let live = true;
        try {
          live = await this.#options.isLive(group[0]!.principal);
        } catch (error) {
          // The database is unreachable: keep what is open (the faults contract), check next time.
          this.#options.log?.warn(
            { err: error, component: 'revocation' },
            'credential re-check failed',
          );
        }
        if (!live) for (const watch of group) this.#end(watch);
      }
    };
    await Promise.all(Array.from({ length: recheckConcurrency }, worker));
  }

  #revoke(credentials: readonly string[]) {
    if (!Array.isArray(credentials)) return;
    const hit = new Set<Watch>();
    for (const handle of credentials) {
      for (const watch of this.#byHandle.get(handle) ?? []) hit.add(watch);
    }
    for (const watch of hit) this.#end(watch);
  }

  #end(watch: Watch) {
    if (watch.ended) return;
    this.#release(watch);
    try {
      watch.onRevoked();
    } catch (error) {
      // A listener must not throw (the bus would report it as uncaught); log and go on.
      this.#options.log?.warn(
        { err: error, component: 'revocation' },
        'revocation listener failed',
      );
    }
  }

  #release(watch: Watch) {
    watch.ended = true;
    for (const handle of watch.lineage) {
      const set = this.#byHandle.get(handle);
      set?.delete(watch);
      if (set?.size === 0) this.#byHandle.delete(handle);
    }
  }

  /** Every watch once (a watch is indexed under each handle of its lineage). */
  *#all(): Generator<Watch> {
    const seen = new Set<Watch>();
    for (const set of this.#byHandle.values()) {
      for (const watch of set) {
        if (!seen.has(watch)) {
          seen.add(watch);
          yield watch;
        }
      }
    }
  }
}
