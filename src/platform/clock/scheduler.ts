import type { Clock } from './clock';
import { MinHeap } from './heap';

interface Task {
  key: string;
  at: number;
  order: number;
  run: () => unknown;
}

// DESIGN, Clock: work that falls due (deliveries, expiries, purges) registers here. Real time
// fires it through one timer; advancing the clock runs everything that fell due in time order,
// each task seeing the clock at its own due time, before the advance answers.
export class Scheduler {
  readonly #clock: Clock;
  readonly #tasks = new Map<string, Task>();
  // Replaced or cancelled tasks stay in the heap and are skipped when they surface.
  readonly #queue = new MinHeap<Task>(
    (a, b) => a.at < b.at || (a.at === b.at && a.order < b.order),
  );
  #order = 0;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> = Promise.resolve();
  #started = false;
  readonly #onError: (err: unknown, key: string) => void;

  constructor(clock: Clock, onError: (err: unknown, key: string) => void = () => {}) {
    this.#clock = clock;
    this.#onError = onError;
  }

  /** Registers `run` at `at` (ms on the clock); a task with the same key is replaced. */
  schedule(key: string, at: number, run: () => unknown): void {
    const task = { key, at, order: this.#order++, run };
    this.#tasks.set(key, task);
    this.#queue.push(task);
    this.#arm();
  }

  cancel(key: string): void {
    this.#tasks.delete(key);
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
   * Moves the clock to `target`, running every task due on the way, in time order. A task must
   * not call this itself: runs are serialised, so it would wait on its own run.
   */
  advanceTo(target: number): Promise<void> {
    return this.#exclusive(async () => {
      for (let task = this.#next(target); task; task = this.#next(target)) {
        this.#clock.moveTo(task.at);
        await this.#runOne(task);
      }
      this.#clock.moveTo(target);
    });
  }

  /** Runs what is due now; the real-time timer calls this. */
  runDue(): Promise<void> {
    return this.advanceTo(this.#clock.nowMs());
  }

  /** Waits for whatever run is under way (used by shutdown and tests). */
  idle(): Promise<void> {
    return this.#running;
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

  #next(until: number): Task | undefined {
    const task = this.#peek();
    return task !== undefined && task.at <= until ? task : undefined;
  }

  async #runOne(task: Task): Promise<void> {
    // Dropped before it runs, so that it may reschedule itself under the same key.
    this.#queue.pop();
    this.#tasks.delete(task.key);
    try {
      await task.run();
    } catch (err) {
      this.#onError(err, task.key);
    }
  }

  #exclusive(work: () => Promise<void>): Promise<void> {
    const run = this.#running.then(work);
    this.#running = run.catch(() => {});
    return run.finally(() => this.#arm());
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
    this.#timer = setTimeout(() => {
      void this.runDue();
    }, delay);
    this.#timer.unref();
  }
}
