import type { Scope } from './types';

type Listener = (scope: Scope) => void;

/**
 * Who is told of a workspace once its records are in memory. The listeners (due work, purges,
 * deliveries to resume) scan the whole workspace, so they run once the read that parsed it is
 * answered, not on its way (issue 35: they were a third of a first page's time). They scan what
 * is committed then, as a start would have; `tell`, which every move of the clock runs first,
 * tells them at once.
 */
export class LoadedListeners {
  readonly #listeners: Listener[] = [];
  /** Workspaces parsed and not told yet, each with how many listeners there were then. */
  #waiting: [Scope, number][] = [];

  /** A new listener, told at once of the workspaces in memory now. */
  add(listener: Listener, inMemory: Iterable<Scope>): void {
    this.#listeners.push(listener);
    for (const scope of inMemory) {
      listener(scope);
    }
  }

  /** `scope` was parsed: its listeners are told once this turn's answers are on their way. */
  parsed(scope: Scope): void {
    this.#waiting.push([scope, this.#listeners.length]);
    if (this.#waiting.length === 1) {
      setImmediate(() => this.tell());
    }
  }

  /** The store read back: no workspace parsed before is told of. */
  clear(): void {
    this.#waiting = [];
  }

  /** A dropped workspace: nobody is told of it any more. */
  forget(scope: Scope): void {
    this.#waiting = this.#waiting.filter(([waiting]) => waiting !== scope);
  }

  /** Tells every listener of every workspace parsed and not told yet; one added since was told. */
  tell(): void {
    if (this.#waiting.length === 0) {
      return;
    }
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const [scope, listeners] of waiting) {
      for (const listener of this.#listeners.slice(0, listeners)) {
        listener(scope);
      }
    }
  }
}
