/**
 * The verdict outbox's `published_at` marks (outbox.ts announces, this writes the marks). Its own
 * module, importing nothing of the domain, so the domain context can hold one without an import
 * cycle through the operations that take that context.
 */
import type { MikroORM } from '@mikro-orm/postgresql';

/** Marks are written at most this long after their announcement, or at this many at once. */
const MARK_DELAY_MS = 20;
const MARK_BATCH = 200;

/**
 * The outbox marks, written in batches: one UPDATE for every verdict announced in the last few
 * milliseconds, off the ingest path, so a busy instance does not pay a write per message. A mark
 * lost to a crash only means one more announcement by the relay.
 */
export class PublishedMarks {
  readonly #orm: MikroORM;
  readonly #clock: () => Date;
  readonly #onError: (error: unknown) => void;
  #pending: string[] = [];
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();

  constructor(orm: MikroORM, clock: () => Date, onError: (error: unknown) => void) {
    this.#orm = orm;
    this.#clock = clock;
    this.#onError = onError;
  }

  add(verdictId: string) {
    this.#pending.push(verdictId);
    if (this.#pending.length >= MARK_BATCH) void this.flush();
    else this.#timer ??= setTimeout(() => void this.flush(), MARK_DELAY_MS).unref();
  }

  /** Writes what is pending; resolves when every mark so far is written. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const ids = this.#pending;
    this.#pending = [];
    if (ids.length) {
      this.#flushing = this.#flushing
        .then(() =>
          this.#orm.em
            .fork()
            .execute(
              'update verdict set published_at = ? where id in (?) and published_at is null',
              [this.#clock(), ids],
            ),
        )
        .then(
          () => undefined,
          (error) => this.#onError(error),
        );
    }
    return this.#flushing;
  }
}
