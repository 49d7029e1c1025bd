interface Waiter {
  seq: number;
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * How far the commits are durable (the journal's fsync, or PostgreSQL's commit), and the answers
 * waiting for it to reach theirs: one for either kind of durability (persistence.ts, pg/).
 */
export class DurableMark {
  #seq: number;
  #waiters: Waiter[] = [];

  constructor(seq: number) {
    this.#seq = seq;
  }

  get seq(): number {
    return this.#seq;
  }

  /** Resolves once the mark reaches `seq`. */
  wait(seq: number): Promise<void> {
    if (seq <= this.#seq) {
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => this.#waiters.push({ seq, resolve, reject }));
  }

  /** Everything up to `seq` is durable: its waiters go on. */
  reach(seq: number): void {
    this.#seq = Math.max(this.#seq, seq);
    const still: Waiter[] = [];
    for (const waiter of this.#waiters) {
      if (waiter.seq <= this.#seq) {
        waiter.resolve();
      } else {
        still.push(waiter);
      }
    }
    this.#waiters = still;
  }

  /** Nothing waiting will be durable: every waiter is told `err`. */
  rejectAll(err: Error): void {
    for (const waiter of this.#waiters) {
      waiter.reject(err);
    }
    this.#waiters = [];
  }
}

/**
 * The database could not take a write (store/pg): answered 500 with Retry-After, retried later.
 * Here, beside the mark its waiters are told it by, so the request path need not load pg.
 */
export class StoreUnavailable extends Error {}
