// spec, Events: one slow or dead receiver must never hold up another subscription's deliveries.
// Sends run concurrently up to a global bound, and each subscription gets at most a few of the
// slots; waiting work is taken round-robin across subscriptions, so a subscription with a long
// backlog cannot starve one that has a single delivery waiting.

export class Pool {
  readonly #total: number;
  readonly #perKey: number;
  readonly #active = new Map<string, number>();
  readonly #waiting = new Map<string, (() => void)[]>();
  #running = 0;

  constructor(total: number, perKey: number) {
    this.#total = total;
    this.#perKey = perKey;
  }

  get running(): number {
    return this.#running;
  }

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    if (this.#free(key)) {
      this.#take(key);
    } else {
      // #wake takes the slot on this work's behalf before it resolves.
      await new Promise<void>((resolve) => {
        const queue = this.#waiting.get(key) ?? [];
        queue.push(resolve);
        this.#waiting.set(key, queue);
      });
    }
    try {
      return await work();
    } finally {
      this.#give(key);
    }
  }

  #free(key: string): boolean {
    return this.#running < this.#total && (this.#active.get(key) ?? 0) < this.#perKey;
  }

  #take(key: string): void {
    this.#running += 1;
    this.#active.set(key, (this.#active.get(key) ?? 0) + 1);
  }

  #give(key: string): void {
    this.#running -= 1;
    const left = (this.#active.get(key) ?? 1) - 1;
    if (left === 0) {
      this.#active.delete(key);
    } else {
      this.#active.set(key, left);
    }
    this.#wake();
  }

  /** Hands free slots to waiting work, one subscription after another. */
  #wake(): void {
    while (this.#running < this.#total) {
      const key = [...this.#waiting.keys()].find((k) => this.#free(k));
      const queue = key === undefined ? undefined : this.#waiting.get(key);
      const next = queue?.shift();
      if (key === undefined || queue === undefined || next === undefined) {
        return;
      }
      // To the back of the line: the next free slot goes to another subscription first.
      this.#waiting.delete(key);
      if (queue.length > 0) {
        this.#waiting.set(key, queue);
      }
      this.#take(key);
      next();
    }
  }
}

/** Waits `ms`: true, or false once `signal` stops the worker meanwhile. */
export function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve(!signal.aborted);
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
