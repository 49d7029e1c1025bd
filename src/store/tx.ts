import type { GlobalCollections, Name, RecordOf, WorkspaceCollections } from './collections';
import { type Change, DROP, GLOBAL, type Op, type Rec, type Scope } from './types';

export interface BaseReader {
  read(scope: Scope, coll: string, id: string): Rec | undefined;
  values(scope: Scope, coll: string): Iterable<Rec>;
}

const slot = (scope: Scope, coll: string) => `${scope}\u0000${coll}`;

/** The writes of one transaction, kept aside until it commits whole or not at all. */
export class Tx {
  readonly #base: BaseReader;
  readonly #writes = new Map<string, Map<string, Rec | null>>();
  readonly #texts = new Map<Rec, string>();
  readonly #drops = new Set<Scope>();
  /**
   * A restore puts data back as it was: nothing happened in the workspace, so the commit hooks
   * that turn changes into events raise none. Those that schedule due work still follow it.
   */
  readonly quiet: boolean;

  constructor(base: BaseReader, quiet = false) {
    this.#base = base;
    this.quiet = quiet;
  }

  scope<C>(scope: Scope): TxScope<C> {
    return new TxScope<C>(this, scope);
  }

  get global(): TxScope<GlobalCollections> {
    return this.scope(GLOBAL);
  }

  workspace(id: string): TxScope<WorkspaceCollections> {
    return this.scope(id);
  }

  /**
   * Drops a workspace scope whole: its records go in one op, without reading them. A read of it
   * afterwards finds nothing, and a write to it is refused (the store refuses any later one too).
   */
  drop(scope: Scope): void {
    if (scope === GLOBAL) {
      throw new Error('the global scope is never dropped');
    }
    this.#drops.add(scope);
    for (const key of [...this.#writes.keys()]) {
      if (key.startsWith(`${scope}\u0000`)) {
        this.#writes.delete(key);
      }
    }
  }

  /** The workspace scopes this transaction drops. */
  get dropped(): ReadonlySet<Scope> {
    return this.#drops;
  }

  read(scope: Scope, coll: string, id: string): Rec | undefined {
    if (this.#drops.has(scope)) {
      return undefined;
    }
    const written = this.#writes.get(slot(scope, coll))?.get(id);
    return written === undefined ? this.#base.read(scope, coll, id) : (written ?? undefined);
  }

  /**
   * Keeps the record as its JSON parsed back, frozen, and answers that: a record built by spreads
   * and template strings has a hidden class of its own and strings in pieces, some 40% more
   * memory than the same record read from the data file, which the old generation then carries
   * for as long as the record lives (issue 21). Its JSON is kept for the journal line.
   */
  write(scope: Scope, coll: string, id: string, rec: Rec | null): Rec | null {
    if (this.#drops.has(scope)) {
      throw new Error(`scope ${scope} was dropped`);
    }
    const key = slot(scope, coll);
    let writes = this.#writes.get(key);
    if (writes === undefined) {
      writes = new Map();
      this.#writes.set(key, writes);
    }
    if (rec === null) {
      writes.set(id, null);
      return null;
    }
    const text = JSON.stringify(rec);
    const stored = Object.freeze(JSON.parse(text) as Rec);
    this.#texts.set(stored, text);
    writes.set(id, stored);
    return stored;
  }

  values(scope: Scope, coll: string): Rec[] {
    if (this.#drops.has(scope)) {
      return [];
    }
    const writes = this.#writes.get(slot(scope, coll));
    const out: Rec[] = [];
    for (const rec of this.#base.values(scope, coll)) {
      const written = writes?.get(rec.id);
      if (written === undefined) {
        out.push(rec);
      } else if (written !== null) {
        out.push(written);
      }
    }
    for (const [id, rec] of writes ?? []) {
      if (rec !== null && this.#base.read(scope, coll, id) === undefined) {
        out.push(rec);
      }
    }
    return out;
  }

  /**
   * What committing would change, before and after, and the journal ops for it. A dropped scope is
   * one op and no change: the hooks read `dropped`.
   */
  changes(): { changes: Change[]; ops: Op[] } {
    const changes: Change[] = [];
    const ops: Op[] = [...this.#drops].map((scope): Op => [scope, DROP, DROP]);
    for (const [key, writes] of this.#writes) {
      const [scope = '', coll = ''] = key.split('\u0000');
      for (const [id, rec] of writes) {
        const before = this.#base.read(scope, coll, id);
        if (rec === null && before === undefined) {
          continue;
        }
        changes.push({ scope, coll, id, before, after: rec ?? undefined });
        ops.push(rec === null ? [scope, coll, id] : [scope, coll, id, rec, this.#texts.get(rec)]);
      }
    }
    return { changes, ops };
  }
}

/** A transaction seen from one scope: all a workspace's services can touch. */
export class TxScope<C> {
  readonly #tx: Tx;
  readonly scope: Scope;

  constructor(tx: Tx, scope: Scope) {
    this.#tx = tx;
    this.scope = scope;
  }

  get<K extends Name<C>>(coll: K, id: string): RecordOf<C, K> | undefined {
    return this.#tx.read(this.scope, coll, id) as RecordOf<C, K> | undefined;
  }

  all<K extends Name<C>>(coll: K): RecordOf<C, K>[] {
    return this.#tx.values(this.scope, coll) as RecordOf<C, K>[];
  }

  put<K extends Name<C>>(coll: K, rec: RecordOf<C, K>): RecordOf<C, K> {
    return this.#tx.write(this.scope, coll, rec.id, rec) as RecordOf<C, K>;
  }

  delete<K extends Name<C>>(coll: K, id: string): void {
    this.#tx.write(this.scope, coll, id, null);
  }
}
