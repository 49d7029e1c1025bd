// DESIGN, Clock: every notion of time reads a clock. The server's runs with real time, shifted by
// an offset that /__admin/clock moves; a workspace's runs with the server's, shifted by an offset
// of its own (Clocks). Offsets are persisted, so a restart keeps the time.
export class Clock {
  #offsetMs: number;
  readonly #realNow: () => number;
  /** The last instant `iso` formatted, and its text: many calls fall in one millisecond. */
  #isoMs = Number.NaN;
  #isoText = '';

  constructor(offsetMs = 0, realNow: () => number = Date.now) {
    this.#offsetMs = offsetMs;
    this.#realNow = realNow;
  }

  nowMs(): number {
    return this.#realNow() + this.#offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  iso(): string {
    return this.isoOf(this.nowMs());
  }

  /** `ms` as ISO 8601 text; formatting a Date was a few per cent of a small read. */
  isoOf(ms: number): string {
    if (ms !== this.#isoMs) {
      this.#isoMs = ms;
      this.#isoText = new Date(ms).toISOString();
    }
    return this.#isoText;
  }

  get offsetMs(): number {
    return this.#offsetMs;
  }

  /**
   * Puts the clock `offsetMs` ahead of real time (its parent's, for a workspace's clock), either
   * way: a workspace restored from a snapshot takes back the clock it had then.
   */
  setOffset(offsetMs: number): void {
    this.#offsetMs = offsetMs;
  }

  /** Moves the clock to `ms`; never backwards, so stored timestamps keep their order. */
  moveTo(ms: number): void {
    const delta = ms - this.nowMs();
    if (delta > 0) {
      this.#offsetMs += delta;
    }
  }
}
