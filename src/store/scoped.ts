import type { Name, RecordOf } from './collections';
import type { ScanOptions, Store } from './store';
import type { TxScope } from './tx';
import type { Rec, Scope } from './types';

/** Reads and writes confined to one scope: a workspace's services can reach nothing else. */
export class ScopedStore<C> {
  readonly #store: Store;
  readonly scope: Scope;

  constructor(store: Store, scope: Scope) {
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
