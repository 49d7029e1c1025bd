import type { Clock } from './clock';
import { MinHeap } from './heap';

interface Task {
  key: string;
  /** When it falls due on its group's clock (the server's, for a task of no group). */
  at: number;
  /** The same instant on the server's clock, which the timer and the heap go by. */
  due: number;
  order: number;
  run: () => unknown;
  /** The workspace the work is of, if any: on its clock, and cancelled with it. */
  group: string | undefined;
}

/** A task of a workspace, as `around` is given it to run. */
export interface GroupTask {
  key: string;
  at: number;
  group: string;
  run: () => unknown;
}

/** A workspace's tasks: their keys, and a heap of them by `at`, for its own clock's moves. */
interface Group {
  keys: Set<string>;
  queue: MinHeap<Task>;
  inFlight: Set<Promise<void>>;
  /** When each task running now fell due, on the group's clock. */
  runningAt: Map<Promise<void>, number>;
  /** Moves of this group's clock, one after another. */
  advancing: Promise<void>;
}

const byAt = (a: Task, b: Task) => a.at < b.at || (a.at === b.at && a.order < b.order);
const byDue = (a: Task, b: Task) => a.due < b.due || (a.due === b.due && a.order < b.order);

// DESIGN, Clock: work that falls due (deliveries, expiries, purges) registers here.
//
// Real time fires due work through one timer, starting each task without waiting for earlier
// ones: a delivery to a slow receiver never holds up another. Advancing the clock runs everything
// that falls due on the way in time order: all work due at the current instant starts together,
// and the clock moves on to the next due time only once the work in flight has finished, since
// that work may schedule more (a retry) before it.
//
// A workspace's work is on the workspace's clock, which runs ahead of the server's by an offset
// (decisions.md, Clock): a task of a group is kept by when it falls due there, and by the same
// instant on the server's clock, which moves when the offset does (rekey). Moving one workspace's
// clock (advanceGroup) runs that workspace's work alone.
export class Scheduler {
  readonly #clock: Clock;
  readonly #offsetOf: (group: string) => number;
  readonly #tasks = new Map<string, Task>();
  readonly #groups = new Map<string, Group>();
  // Replaced or cancelled tasks stay in the heaps and are skipped when they surface.
  readonly #queue = new MinHeap<Task>(byDue);
  readonly #inFlight = new Set<Promise<void>>();
  #order = 0;
  #timer: NodeJS.Timeout | undefined;
  #advancing: Promise<void> = Promise.resolve();
  #started = false;
  readonly #onError: (err: unknown, key: string) => void;
  /** What runs around a group's task: its workspace loaded and kept while it runs (residency). */
  #around: ((task: GroupTask) => unknown) | undefined;

  /** `offsetOf`: how far a group's clock is ahead of the server's `clock` now, in ms. */
  constructor(
    clock: Clock,
    onError: (err: unknown, key: string) => void = () => {},
    offsetOf: (group: string) => number = () => 0,
  ) {
    this.#clock = clock;
    this.#onError = onError;
    this.#offsetOf = offsetOf;
  }

  /**
   * Registers `run` at `at` (ms on the clock of `group`, a workspace, else the server's); a task
   * with the same key is replaced.
   */
  schedule(key: string, at: number, run: () => unknown, group?: string): void {
    const due = group === undefined ? at : at - this.#offsetOf(group);
    const task: Task = { key, at, due, order: this.#order++, run, group };
    this.#forget(this.#tasks.get(key));
    this.#tasks.set(key, task);
    if (group !== undefined) {
      const of = this.#group(group);
      of.keys.add(key);
      of.queue.push(task);
      this.#compact(of);
    }
    this.#queue.push(task);
    this.#arm();
  }

  /**
   * A group's heap is popped only when its clock moves: the places of tasks run, replaced or
   * cancelled since would pile up in a workspace whose clock never does, so past twice its live
   * tasks it is made again from them.
   */
  #compact(of: Group): void {
    if (of.queue.size <= 2 * of.keys.size + 64) {
      return;
    }
    const queue = new MinHeap<Task>(byAt);
    for (const key of of.keys) {
      const task = this.#tasks.get(key);
      if (task !== undefined) {
        queue.push(task);
      }
    }
    of.queue = queue;
  }

  cancel(key: string): void {
    this.#forget(this.#tasks.get(key));
    this.#tasks.delete(key);
    this.#arm();
  }

  /** Cancels every task of `group` (a workspace deleted); work of it already running runs on. */
  cancelGroup(group: string): void {
    for (const key of this.#groups.get(group)?.keys ?? []) {
      this.#tasks.delete(key);
    }
    this.#groups.delete(group);
    this.#arm();
  }

  /** The offset of `group`'s clock changed: its tasks fall due at other server instants. */
  rekey(group: string): void {
    const of = this.#groups.get(group);
    if (of === undefined) {
      return;
    }
    const offset = this.#offsetOf(group);
    for (const key of of.keys) {
      const task = this.#tasks.get(key);
      if (task !== undefined && task.due !== task.at - offset) {
        const moved = { ...task, due: task.at - offset };
        this.#tasks.set(key, moved);
        of.queue.push(moved);
        this.#queue.push(moved);
      }
    }
    this.#compact(of);
    this.#arm();
  }

  /** Every task of a group runs through `around` (the store on PostgreSQL loads its workspace). */
  around(wrap: (task: GroupTask) => unknown): void {
    this.#around = wrap;
  }

  /**
   * When `group`'s next task falls due on its clock, a task running now counting as due when it
   * fell due (a send under way that a stop cuts short goes again); undefined when there is none.
   */
  earliest(group: string): number | undefined {
    let at = this.#peekGroup(group)?.at;
    for (const running of this.#groups.get(group)?.runningAt.values() ?? []) {
      at = at === undefined ? running : Math.min(at, running);
    }
    return at;
  }

  /** Whether work of `group` is running now. */
  busy(group: string): boolean {
    return (this.#groups.get(group)?.inFlight.size ?? 0) > 0;
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
   * Moves the server's clock to `target`, and every workspace's with it, running every task due
   * on the way in time order, and resolves once nothing due by then is left or running. Advances
   * queue behind one another.
   */
  advanceTo(target: number): Promise<void> {
    const run = this.#advancing.then(() =>
      this.#advance(
        this.#clock,
        target,
        () => this.#peek(),
        this.#inFlight,
        (t) => t.due,
      ),
    );
    this.#advancing = run.catch(() => {});
    return run.finally(() => this.#arm());
  }

  /**
   * Moves `clock`, the clock of `group` (a workspace), to `target`, running that group's tasks
   * due on the way in time order; nothing of another group, nor the server's own work, runs.
   * Moves of one group queue behind one another; other groups' move at the same time.
   */
  advanceGroup(group: string, clock: Clock, target: number): Promise<void> {
    const of = this.#group(group);
    const run = of.advancing.then(() =>
      this.#advance(
        clock,
        target,
        () => this.#peekGroup(group),
        of.inFlight,
        (t) => t.at,
      ),
    );
    of.advancing = run.catch(() => {});
    return run.finally(() => this.rekey(group));
  }

  async #advance(
    clock: Clock,
    target: number,
    peek: () => Task | undefined,
    inFlight: Set<Promise<void>>,
    when: (task: Task) => number,
  ): Promise<void> {
    for (;;) {
      const next = peek();
      if (next && when(next) <= clock.nowMs()) {
        this.#start(next);
      } else if (inFlight.size > 0) {
        await Promise.race(inFlight);
      } else if (next && when(next) <= target) {
        clock.moveTo(when(next));
      } else {
        break;
      }
    }
    clock.moveTo(target);
  }

  /** Starts what is due now (the real-time timer calls this); does not wait for it. */
  runDue(): void {
    for (let next = this.#peek(); next && next.due <= this.#clock.nowMs(); next = this.#peek()) {
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

  #group(group: string): Group {
    let of = this.#groups.get(group);
    if (of === undefined) {
      of = {
        keys: new Set(),
        queue: new MinHeap<Task>(byAt),
        inFlight: new Set(),
        runningAt: new Map(),
        advancing: Promise.resolve(),
      };
      this.#groups.set(group, of);
    }
    return of;
  }

  #peek(): Task | undefined {
    return live(this.#queue, this.#tasks);
  }

  #peekGroup(group: string): Task | undefined {
    const of = this.#groups.get(group);
    return of && live(of.queue, this.#tasks);
  }

  #start(task: Task): void {
    // Dropped before it runs, so that it may reschedule itself under the same key; its places in
    // the heaps are skipped when they surface.
    this.#tasks.delete(task.key);
    this.#forget(task);
    const group = task.group === undefined ? undefined : this.#group(task.group);
    const around = this.#around;
    const { key, at, group: of } = task;
    const run =
      around === undefined || of === undefined
        ? task.run
        : () => around({ key, at, group: of, run: task.run });
    const running: Promise<void> = Promise.resolve()
      .then(run)
      .then(
        () => undefined,
        (err: unknown) => this.#onError(err, task.key),
      )
      .finally(() => {
        this.#inFlight.delete(running);
        group?.inFlight.delete(running);
        group?.runningAt.delete(running);
      });
    this.#inFlight.add(running);
    group?.inFlight.add(running);
    group?.runningAt.set(running, task.at);
  }

  /** Takes `task` out of its group's keys. */
  #forget(task: Task | undefined): void {
    if (task?.group !== undefined) {
      this.#groups.get(task.group)?.keys.delete(task.key);
    }
  }

  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#started || this.#tasks.size === 0) {
      return;
    }
    const earliest = this.#peek()?.due ?? Number.POSITIVE_INFINITY;
    // setTimeout holds at most ~24.8 days; a longer wait simply re-arms.
    const delay = Math.min(Math.max(earliest - this.#clock.nowMs(), 0), 2 ** 31 - 1);
    this.#timer = setTimeout(() => this.runDue(), delay);
    this.#timer.unref();
  }
}

/** The top of `queue` that is still the task its key names; stale entries are dropped. */
function live(queue: MinHeap<Task>, tasks: ReadonlyMap<string, Task>): Task | undefined {
  for (let top = queue.peek(); top; top = queue.peek()) {
    if (tasks.get(top.key) === top) {
      return top;
    }
    queue.pop();
  }
  return undefined;
}
