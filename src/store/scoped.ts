import type { Name, RecordOf } from './collections';
import type { Tx, TxScope } from './tx';
import type { Rec, ScanOptions, Scope } from './types';

/** What a scoped store reads and writes through: the store, seen from one scope. */
export interface Backing {
  read(scope: Scope, coll: string, id: string): Rec | undefined;
  values(scope: Scope, coll: string): IterableIterator<Rec>;
  version(scope: Scope, coll: string): number | undefined;
  count(scope: Scope, coll: string): number;
  scan(scope: Scope, coll: string, opts: ScanOptions<Rec>): { items: Rec[]; hasMore: boolean };
  transaction<T>(fn: (tx: Tx) => T): T;
}

/** Reads and writes confined to one scope: a workspace's services can reach nothing else. */
export class ScopedStore<C> {
  readonly #store: Backing;
  readonly scope: Scope;

  constructor(store: Backing, scope: Scope) {
    this.#store = store;
    this.scope = scope;
  }

  get<K extends Name<C>>(coll: K, id: string): RecordOf<C, K> | undefined {
    return this.#store.read(this.scope, coll, id) as RecordOf<C, K> | undefined;
  }

  values<K extends Name<C>>(coll: K): IterableIterator<RecordOf<C, K>> {
    return this.#store.values(this.scope, coll) as IterableIterator<RecordOf<C, K>>;
  }

  /** See Store.version: undefined inside a transaction. */
  version<K extends Name<C>>(coll: K): number | undefined {
    return this.#store.version(this.scope, coll);
  }

  count<K extends Name<C>>(coll: K): number {
    return this.#store.count(this.scope, coll);
  }

  scan<K extends Name<C>>(
    coll: K,
    opts: ScanOptions<RecordOf<C, K>>,
  ): { items: RecordOf<C, K>[]; hasMore: boolean } {
    return this.#store.scan(this.scope, coll, opts as ScanOptions<Rec>) as {
      items: RecordOf<C, K>[];
      hasMore: boolean;
    };
  }

  transaction<T>(fn: (tx: TxScope<C>) => T): T {
    return this.#store.transaction((tx) => fn(tx.scope<C>(this.scope)));
  }
}
