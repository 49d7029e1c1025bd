import { Collection } from './collection';
import type { GlobalCollections, WorkspaceCollections } from './collections';
import { parsed, type ReplayOp } from './journal';
import { LoadedListeners } from './loaded';
import { type Durability, Persistence } from './persistence';
import { type Backing, ScopedStore } from './scoped';
import { Tx } from './tx';
import {
  type Change,
  type DataFileContents,
  DROP,
  GLOBAL,
  type LoadedScope,
  type Op,
  type Rec,
  type ScanOptions,
  type Scope,
  ScopeDropped,
  UnparsedScope,
} from './types';

export type CommitHook = (changes: readonly Change[], tx: Tx) => void;

/**
 * The whole data set in memory, made durable by a journal or PostgreSQL. Every read and write
 * names its scope (a workspace or the global one); transactions are synchronous functions that
 * commit whole or not at all, and nothing else runs while one is open.
 */
export class Store implements Backing {
  readonly #scopes = new Map<Scope, Map<string, Collection>>();
  /** Workspaces of the data file not parsed yet: each is, the first time anything reads it. */
  readonly #unparsed = new Map<Scope, UnparsedScope>();
  /** The journal's ops for a workspace not parsed yet, applied when it is (a restart parses less). */
  readonly #replayed = new Map<Scope, ReplayOp[]>();
  readonly #loaded = new LoadedListeners();
  /** Collections still the data file's bytes, for the background parse to take in turn. */
  #spans: Collection[] = [];
  /** Workspaces dropped whole: no later write may name one. */
  readonly #dropped = new Set<Scope>();
  #path = '';
  readonly #hooks: CommitHook[] = [];
  readonly #applied: ((changes: readonly Change[]) => void)[] = [];
  readonly #droppedListeners: ((scope: Scope) => void)[] = [];
  #seq = 0;
  #tx: Tx | undefined;
  #persistence: Durability | undefined;
  #closed = false;

  /** A store that lives only in memory (tests, throw-away servers). */
  static memory(): Store {
    return new Store();
  }

  /** Opens the data file (with its journal), replaying whatever the journal holds beyond it. */
  static async open(dataPath: string): Promise<{ store: Store; created: boolean }> {
    const store = new Store();
    const { persistence, data, txs } = await Persistence.open(dataPath);
    store.#path = dataPath;
    if (data) {
      store.#load(data);
    }
    for (const tx of txs) {
      store.#replay(tx.ops);
      store.#seq = tx.seq;
    }
    store.#persistence = persistence;
    if (store.#dropped.size > 0) {
      persistence.foldSoon(); // a workspace deleted just before a crash leaves the file now
    }
    return { store, created: data === null && txs.length === 0 };
  }

  /** The PostgreSQL store at `url`, in `schema` (architecture.md, The store on PostgreSQL). */
  static async openPostgres(url: string, schema: string): Promise<Store> {
    return (await import('./pg/open')).openPostgres(url, schema);
  }

  /** A store over `data`, its commits made durable by `durability` (store/pg/open.ts). */
  static over(data: DataFileContents, durability: Durability): Store {
    const store = new Store();
    store.#load(data);
    store.#persistence = durability;
    return store;
  }

  /** Every record let go for `data`: read back from PostgreSQL after a lost commit (pg/open.ts). */
  reload(data: DataFileContents): void {
    const seq = this.#seq;
    this.#scopes.clear();
    this.#unparsed.clear();
    this.#replayed.clear();
    this.#spans = [];
    this.#load(data);
    this.#seq = Math.max(seq, data.seq);
  }

  get seq(): number {
    return this.#seq;
  }

  get global(): ScopedStore<GlobalCollections> {
    return new ScopedStore(this, GLOBAL);
  }

  workspace(id: string): ScopedStore<WorkspaceCollections> {
    return new ScopedStore(this, id);
  }

  /** `listener` for every workspace in memory, and each other once parsed: what a start scans. */
  onLoaded(listener: (scope: Scope) => void): void {
    this.#loaded.add(
      listener,
      [...this.#scopes.keys()].filter((scope) => scope !== GLOBAL),
    );
  }

  /** Whether workspaces of the data file are still waiting to be parsed. */
  get unparsed(): number {
    return this.#unparsed.size;
  }

  /** Workspaces and collections of the data file still waiting to be parsed. */
  get waiting(): number {
    return this.#unparsed.size + this.#spans.length;
  }

  /** Parses one waiting workspace, else collection (background loading); whether any are left. */
  parseNext(): boolean {
    const next = this.#unparsed.keys().next();
    if (!next.done) {
      this.#parse(next.value);
    } else {
      const collection = this.#spans.pop();
      if (collection?.unparsed) {
        void collection.byId; // parsed on first use: this is its use
      }
    }
    return this.waiting > 0;
  }

  /** Parses workspace `scope` and tells the onLoaded listeners now: its clock is about to move. */
  load(scope: Scope): void {
    this.#parse(scope);
    this.#loaded.tell();
  }

  /** Parses every waiting workspace and tells the listeners: all due work, before the clock moves. */
  parseAll(): void {
    while (this.#unparsed.size > 0) {
      this.parseNext();
    }
    this.#loaded.tell();
  }

  /** Runs inside every commit with its changes; may write more (the outbox, later). */
  onCommit(hook: CommitHook): void {
    this.#hooks.push(hook);
  }

  /** After every commit is applied in memory, with all its changes (the delivery worker's cue). */
  onApplied(listener: (changes: readonly Change[]) => void): void {
    this.#applied.push(listener);
  }

  /** After a commit that dropped workspaces, once each: what svc keeps beside them forgets them. */
  onDropped(listener: (scope: Scope) => void): void {
    this.#droppedListeners.push(listener);
  }

  /** A transaction over any scope; a nested call joins the outer one; `quiet` raises no events. */
  transaction<T>(fn: (tx: Tx) => T, opts: { quiet?: boolean } = {}): T {
    if (this.#tx) {
      return fn(this.#tx);
    }
    if (this.#closed) {
      // Accepting it would acknowledge a write that the final fold does not hold.
      throw new Error('the store is closed');
    }
    const tx = new Tx(
      {
        read: (scope, coll, id) => this.#collection(scope, coll)?.byId.get(id),
        values: (scope, coll) => this.#collection(scope, coll)?.byId.values() ?? [],
      },
      opts.quiet,
    );
    this.#tx = tx;
    try {
      const value = fn(tx);
      if (value instanceof Promise) {
        throw new Error('store transactions are synchronous');
      }
      const first = tx.changes();
      for (const hook of this.#hooks) {
        hook(first.changes, tx);
      }
      const { ops, changes } = tx.changes();
      // Looked for only once a workspace was dropped: every commit passes here.
      const late =
        this.#dropped.size === 0
          ? undefined
          : ops.find(([scope, coll]) => coll !== DROP && this.#dropped.has(scope));
      if (late !== undefined) {
        throw new ScopeDropped(late[0]);
      }
      if (ops.length > 0) {
        this.#apply(ops);
        this.#seq += 1;
        this.#persistence?.enqueue(this.#seq, ops);
      }
      this.#tx = undefined;
      for (const listener of this.#applied) {
        listener(changes);
      }
      if (tx.dropped.size > 0) {
        for (const scope of tx.dropped) {
          for (const listener of this.#droppedListeners) {
            listener(scope);
          }
        }
        this.#persistence?.foldSoon();
      }
      return value;
    } finally {
      this.#tx = undefined;
    }
  }

  /** Resolves once every committed transaction is on disk. */
  sync(): Promise<void> {
    return this.#persistence ? this.#persistence.waitFor(this.#seq) : Promise.resolve();
  }

  get durable(): boolean {
    return this.#persistence !== undefined;
  }

  /** False while PostgreSQL is being read back after a lost commit: answers are refused. */
  get available(): boolean {
    return this.#persistence?.available !== false;
  }

  get journalBytes(): number {
    return this.#persistence?.journalBytes ?? 0;
  }

  compact(): Promise<void> {
    return this.#persistence?.compact() ?? Promise.resolve();
  }

  /** Flushes (and folds the journal into the data file a last time), then lets go. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#persistence?.close();
  }

  // Inside a transaction, reads see its writes (a commit hook sees the job made beside it).
  read(scope: Scope, coll: string, id: string): Rec | undefined {
    if (this.#tx) {
      return this.#tx.read(scope, coll, id);
    }
    return this.#collection(scope, coll)?.byId.get(id);
  }

  values(scope: Scope, coll: string): IterableIterator<Rec> {
    if (this.#tx) {
      return this.#tx.values(scope, coll)[Symbol.iterator]();
    }
    return (this.#collection(scope, coll)?.byId ?? new Map<string, Rec>()).values();
  }

  /** How many changes `coll` of `scope` has had (none inside a transaction: undefined). */
  version(scope: Scope, coll: string): number | undefined {
    return this.#tx ? undefined : (this.#collection(scope, coll)?.version ?? 0);
  }

  count(scope: Scope, coll: string): number {
    return this.#collection(scope, coll)?.byId.size ?? 0;
  }

  scan(scope: Scope, coll: string, opts: ScanOptions<Rec>): { items: Rec[]; hasMore: boolean } {
    return this.#collection(scope, coll)?.scan(opts) ?? { items: [], hasMore: false };
  }

  /** The scopes that hold records, the global one aside; each workspace's is one. */
  scopes(): Scope[] {
    const out = new Set([...this.#scopes.keys(), ...this.#unparsed.keys()]);
    out.delete(GLOBAL);
    return [...out];
  }

  /** The collections of a scope that hold records, as committed. */
  collections(scope: Scope): string[] {
    this.#parse(scope);
    const out: string[] = [];
    for (const [name, collection] of this.#scopes.get(scope) ?? []) {
      if (collection.byId.size > 0) {
        out.push(name);
      }
    }
    return out;
  }

  #collection(scope: Scope, coll: string): Collection | undefined {
    this.#parse(scope);
    return this.#scopes.get(scope)?.get(coll);
  }

  /** Parses `scope` if it still waits in the data file's bytes; every read and write asks. */
  #parse(scope: Scope): void {
    const raw = this.#unparsed.size === 0 ? undefined : this.#unparsed.get(scope);
    if (raw === undefined) {
      return;
    }
    this.#loadScope(scope, raw.parse(this.#path));
    this.#unparsed.delete(scope);
    const replayed = this.#replayed.get(scope);
    if (replayed !== undefined) {
      this.#replayed.delete(scope);
      this.#apply(parsed(replayed));
    }
    this.#loaded.parsed(scope);
  }

  /** A journal's transaction at start: held, still text, for a workspace not parsed yet. */
  #replay(ops: readonly ReplayOp[]): void {
    const now: ReplayOp[] = [];
    for (const op of ops) {
      if (op[1] === DROP) {
        // What came before it in the transaction goes first; an unparsed workspace goes unparsed.
        this.#apply(parsed(now.splice(0)));
        this.#drop(op[0]);
      } else if (!this.#unparsed.has(op[0])) {
        now.push(op);
      } else if (this.#replayed.has(op[0])) {
        this.#replayed.get(op[0])?.push(op);
      } else {
        this.#replayed.set(op[0], [op]);
      }
    }
    this.#apply(parsed(now));
  }

  #apply(ops: readonly Op[]): void {
    for (const [scope, coll, id, rec] of ops) {
      if (coll === DROP) {
        this.#drop(scope);
        continue;
      }
      this.#parse(scope);
      let colls = this.#scopes.get(scope);
      if (colls === undefined) {
        colls = new Map();
        this.#scopes.set(scope, colls);
      }
      let collection = colls.get(coll);
      if (collection === undefined) {
        collection = new Collection();
        colls.set(coll, collection);
      }
      const before = collection.byId.get(id);
      if (rec) {
        collection.set(Object.freeze(rec), before);
      } else if (before) {
        collection.delete(before);
      }
    }
  }

  #drop(scope: Scope): void {
    this.#scopes.delete(scope);
    this.#unparsed.delete(scope);
    this.#replayed.delete(scope);
    this.#loaded.forget(scope);
    this.#dropped.add(scope);
  }

  #load(data: DataFileContents): void {
    this.#seq = data.seq;
    this.#loadScope(GLOBAL, data.global);
    for (const [wsId, colls] of Object.entries(data.workspaces)) {
      if (colls instanceof UnparsedScope) {
        this.#unparsed.set(wsId, colls);
      } else {
        this.#loadScope(wsId, colls);
      }
    }
  }

  #loadScope(scope: Scope, colls: LoadedScope): void {
    const map = new Map<string, Collection>();
    for (const [name, records] of Object.entries(colls)) {
      const collection = new Collection(records);
      map.set(name, collection);
      if (collection.unparsed) {
        this.#spans.push(collection);
      }
    }
    this.#scopes.set(scope, map);
  }
}
