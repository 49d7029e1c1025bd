import type { Clock } from './clock';
import { MinHeap } from './heap';

interface Task {
  key: string;
  at: number;
  order: number;
  run: () => unknown;
  /** The workspace the work is of, if any: cancelled with it when it is deleted. */
  group: string | undefined;
}

// DESIGN, Clock: work that falls due (deliveries, expiries, purges) registers here.
//
// Real time fires due work through one timer, starting each task without waiting for earlier
// ones: a delivery to a slow receiver never holds up another. Advancing the clock runs everything
// that falls due on the way in time order: all work due at the current instant starts together,
// and the clock moves on to the next due time only once the work in flight has finished, since
// that work may schedule more (a retry) before it.
export class Scheduler {
  readonly #clock: Clock;
  readonly #tasks = new Map<string, Task>();
  /** The keys of each group's tasks. */
  readonly #groups = new Map<string, Set<string>>();
  // Replaced or cancelled tasks stay in the heap and are skipped when they surface.
  readonly #queue = new MinHeap<Task>(
    (a, b) => a.at < b.at || (a.at === b.at && a.order < b.order),
  );
  readonly #inFlight = new Set<Promise<void>>();
  #order = 0;
  #timer: NodeJS.Timeout | undefined;
  #advancing: Promise<void> = Promise.resolve();
  #started = false;
  readonly #onError: (err: unknown, key: string) => void;

  constructor(clock: Clock, onError: (err: unknown, key: string) => void = () => {}) {
    this.#clock = clock;
    this.#onError = onError;
  }

  /**
   * Registers `run` at `at` (ms on the clock); a task with the same key is replaced. `group`: the
   * workspace it is of, if any (see cancelGroup).
   */
  schedule(key: string, at: number, run: () => unknown, group?: string): void {
    const task = { key, at, order: this.#order++, run, group };
    this.#forget(this.#tasks.get(key));
    this.#tasks.set(key, task);
    if (group !== undefined) {
      let keys = this.#groups.get(group);
      if (keys === undefined) {
        keys = new Set();
        this.#groups.set(group, keys);
      }
      keys.add(key);
    }
    this.#queue.push(task);
    this.#arm();
  }

  cancel(key: string): void {
    this.#forget(this.#tasks.get(key));
    this.#tasks.delete(key);
    this.#arm();
  }

  /** Cancels every task of `group` (a workspace deleted); work of it already running runs on. */
  cancelGroup(group: string): void {
    for (const key of this.#groups.get(group) ?? []) {
      this.#tasks.delete(key);
    }
    this.#groups.delete(group);
    this.#arm();
  }

  has(key: string): boolean {
    return this.#tasks.has(key);
  }

  get size(): number {
    return this.#tasks.size;
  }

  start(): void {
    this.#started = true;
    this.#arm();
  }

  stop(): void {
    this.#started = false;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /**
   * Moves the clock to `target`, running every task due on the way in time order, and resolves
   * once nothing due by then is left or running. Advances queue behind one another.
   */
  advanceTo(target: number): Promise<void> {
    const run = this.#advancing.then(async () => {
      for (;;) {
        const next = this.#peek();
        if (next && next.at <= this.#clock.nowMs()) {
          this.#start(next);
        } else if (this.#inFlight.size > 0) {
          await Promise.race(this.#inFlight);
        } else if (next && next.at <= target) {
          this.#clock.moveTo(next.at);
        } else {
          break;
        }
      }
      this.#clock.moveTo(target);
    });
    this.#advancing = run.catch(() => {});
    return run.finally(() => this.#arm());
  }

  /** Starts what is due now (the real-time timer calls this); does not wait for it. */
  runDue(): void {
    for (let next = this.#peek(); next && next.at <= this.#clock.nowMs(); next = this.#peek()) {
      this.#start(next);
    }
    this.#arm();
  }

  /** Resolves once no task is running (shutdown and tests). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) {
      await Promise.all(this.#inFlight);
    }
  }

  #peek(): Task | undefined {
    for (let top = this.#queue.peek(); top; top = this.#queue.peek()) {
      if (this.#tasks.get(top.key) === top) {
        return top;
      }
      this.#queue.pop();
    }
    return undefined;
  }

  #start(task: Task): void {
    // Dropped before it runs, so that it may reschedule itself under the same key.
    this.#queue.pop();
    this.#tasks.delete(task.key);
    this.#forget(task);
    const running: Promise<void> = Promise.resolve()
      .then(task.run)
      .then(
        () => undefined,
        (err: unknown) => this.#onError(err, task.key),
      )
      .finally(() => {
        this.#inFlight.delete(running);
      });
    this.#inFlight.add(running);
  }

  /** Takes `task` out of its group's keys. */
  #forget(task: Task | undefined): void {
    if (task?.group === undefined) {
      return;
    }
    const keys = this.#groups.get(task.group);
    keys?.delete(task.key);
    if (keys?.size === 0) {
      this.#groups.delete(task.group);
    }
  }

  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#started || this.#tasks.size === 0) {
      return;
    }
    const earliest = this.#peek()?.at ?? Number.POSITIVE_INFINITY;
    // setTimeout holds at most ~24.8 days; a longer wait simply re-arms.
    const delay = Math.min(Math.max(earliest - this.#clock.nowMs(), 0), 2 ** 31 - 1);
    this.#timer = setTimeout(() => this.runDue(), delay);
    this.#timer.unref();
  }
}
