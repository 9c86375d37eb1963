/**
 * A clock for a whole app (`startTestApp({ clock: clock.now })`) that stands still until the test
 * moves it: it starts at the wall clock's time and then moves only by `advance`. Lifetimes and
 * intervals (a 1 s code window, a poll interval, a token's `exp`) therefore pass exactly when the
 * test says, never while a loaded machine is slow between two steps, and never by sleeping.
 * (TestClock in challenges.ts is the same idea with the domain's timer, for operations called
 * directly.) oidc-provider keeps its own wall-clock time: what it stamps (a token's `exp`) is
 * judged by this clock on the way in (src/auth/credentials.ts).
 */
export class MovableClock {
  #current = Date.now();
  now = () => new Date(this.#current);
  advance(seconds: number) {
    this.#current += seconds * 1000;
  }
  /** Moves past `when` (a Date, ISO string or epoch ms) by `marginSeconds`. */
  passBeyond(when: Date | string | number, marginSeconds = 0.1) {
    const ms = new Date(when).getTime() - this.#current;
    this.advance(Math.max(0, ms) / 1000 + marginSeconds);
  }
}
