import type { Clock } from '../clock';

export interface RateState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
  allowed: boolean;
}

interface Window {
  start: number;
  count: number;
}

const WINDOW_MS = 60_000;

// spec, Limits: N requests a minute per key, in fixed one-minute windows on the clock: a key's on
// its workspace's clock (passed in), an address's on the server's.
export class RateLimiter {
  readonly #clock: Clock;
  readonly #windows = new Map<string, Window>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  hit(bucket: string, limit: number, clock: Clock = this.#clock): RateState {
    const now = clock.nowMs();
    const window = this.#window(bucket, now);
    const allowed = window.count < limit;
    if (allowed) {
      window.count += 1;
    }
    return windowState(window, limit, allowed, now);
  }

  /** Takes back a hit that was refused further on, by a tighter limit. */
  unhit(bucket: string): void {
    const window = this.#windows.get(bucket);
    if (window && window.count > 0) {
      window.count -= 1;
    }
  }

  peek(bucket: string, limit: number, clock: Clock = this.#clock): RateState {
    const now = clock.nowMs();
    return windowState(this.#window(bucket, now), limit, true, now);
  }

  #window(bucket: string, now: number): Window {
    let window = this.#windows.get(bucket);
    if (window === undefined || now - window.start >= WINDOW_MS) {
      if (this.#windows.size > 10_000) {
        this.#sweep(now);
      }
      window = { start: now, count: 0 };
      this.#windows.set(bucket, window);
    }
    return window;
  }

  #sweep(now: number): void {
    for (const [bucket, window] of this.#windows) {
      if (now - window.start >= WINDOW_MS) {
        this.#windows.delete(bucket);
      }
    }
  }
}

/**
 * A window's state at `now`: what the headers say of a window begun at `start` holding `count`
 * requests (in memory here, or counted in PostgreSQL by several nodes: store/pg/rates.ts).
 */
export function windowState(
  window: { start: number; count: number },
  limit: number,
  allowed: boolean,
  now: number,
): RateState {
  return {
    limit,
    remaining: Math.max(limit - window.count, 0),
    reset: Math.max(Math.ceil((window.start + WINDOW_MS - now) / 1000), 1),
    allowed,
  };
}
