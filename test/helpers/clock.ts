/**
 * The wall clock plus an offset the test moves: an app built on it (`startTestApp({ clock })`)
 * runs in real time, and a test passes a poll interval, a code window or a token's lifetime with
 * `advance` instead of sleeping through it. (TestClock in challenges.ts is the frozen kind, for
 * domain operations called directly.)
 */
export class MovableClock {
  #offsetMs = 0;
  now = () => new Date(Date.now() + this.#offsetMs);
  advance(seconds: number) {
    this.#offsetMs += seconds * 1000;
  }
  /** Moves past `when` (a Date, ISO string or epoch ms) by `marginSeconds`. */
  passBeyond(when: Date | string | number, marginSeconds = 0.1) {
    const ms = new Date(when).getTime() - this.now().getTime();
    this.advance(Math.max(0, ms) / 1000 + marginSeconds);
  }
}
