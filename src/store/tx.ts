import type { GlobalCollections, Name, RecordOf, WorkspaceCollections } from './collections';
import { type Change, GLOBAL, type Op, type Rec, type Scope } from './types';

export interface BaseReader {
  read(scope: Scope, coll: string, id: string): Rec | undefined;
  values(scope: Scope, coll: string): Iterable<Rec>;
}

const slot = (scope: Scope, coll: string) => `${scope}\u0000${coll}`;

/** The writes of one transaction, kept aside until it commits whole or not at all. */
export class Tx {
  readonly #base: BaseReader;
  readonly #writes = new Map<string, Map<string, Rec | null>>();
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

  read(scope: Scope, coll: string, id: string): Rec | undefined {
    const written = this.#writes.get(slot(scope, coll))?.get(id);
    return written === undefined ? this.#base.read(scope, coll, id) : (written ?? undefined);
  }

  write(scope: Scope, coll: string, id: string, rec: Rec | null): void {
    const key = slot(scope, coll);
    let writes = this.#writes.get(key);
    if (writes === undefined) {
      writes = new Map();
      this.#writes.set(key, writes);
    }
    writes.set(id, rec === null ? null : Object.freeze(rec));
  }

  values(scope: Scope, coll: string): Rec[] {
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

  /** What committing would change, before and after, and the journal ops for it. */
  changes(): { changes: Change[]; ops: Op[] } {
    const changes: Change[] = [];
    const ops: Op[] = [];
    for (const [key, writes] of this.#writes) {
      const [scope = '', coll = ''] = key.split('\u0000');
      for (const [id, rec] of writes) {
        const before = this.#base.read(scope, coll, id);
        if (rec === null && before === undefined) {
          continue;
        }
        changes.push({ scope, coll, id, before, after: rec ?? undefined });
        ops.push(rec === null ? [scope, coll, id] : [scope, coll, id, rec]);
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
    this.#tx.write(this.scope, coll, rec.id, rec);
    return rec;
  }

  delete<K extends Name<C>>(coll: K, id: string): void {
    this.#tx.write(this.scope, coll, id, null);
  }
}
