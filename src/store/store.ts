import type { Collection } from './collection';
import type { GlobalCollections, WorkspaceCollections } from './collections';
import type { Fresh } from './fresh';
import { type Durability, Persistence } from './persistence';
import type { Cluster } from './pg/cluster';
import { Residency, type ScopeSource } from './residency';
import { type Backing, ScopedStore } from './scoped';
import { Scopes } from './scopes';
import { Tx } from './tx';
import {
  type Change,
  type DataFileContents,
  DROP,
  GLOBAL,
  type Op,
  type Rec,
  type ScanOptions,
  type Scope,
  ScopeDropped,
} from './types';

export type CommitHook = (changes: readonly Change[], tx: Tx) => void;

/**
 * The whole data set in memory, made durable by a journal or PostgreSQL. Every read and write
 * names its scope (a workspace or the global one); transactions are synchronous functions that
 * commit whole or not at all, and nothing else runs while one is open.
 */
export class Store implements Backing {
  readonly #scopes = new Scopes();
  readonly #hooks: CommitHook[] = [];
  readonly #applied: ((changes: readonly Change[]) => void)[] = [];
  readonly #droppedListeners: ((scope: Scope) => void)[] = [];
  #seq = 0;
  #tx: Tx | undefined;
  #persistence: Durability | undefined;
  /** On PostgreSQL: which workspaces are in memory (residency.ts); none else. */
  #residency: Residency | undefined;
  #dueOf: ((scope: Scope) => number | null) | undefined;
  #closed = false;

  /** A store that lives only in memory (tests, throw-away servers). */
  static memory(): Store {
    return new Store();
  }

  /** Opens the data file (with its journal), replaying whatever the journal holds beyond it. */
  static async open(dataPath: string): Promise<{ store: Store; created: boolean }> {
    const store = new Store();
    const { persistence, data, txs } = await Persistence.open(dataPath);
    store.#scopes.path = dataPath;
    if (data) {
      store.#load(data);
    }
    for (const tx of txs) {
      store.#scopes.replay(tx.ops);
      store.#seq = tx.seq;
    }
    store.#persistence = persistence;
    if (store.#scopes.dropped.size > 0) {
      persistence.foldSoon(); // a workspace deleted just before a crash leaves the file now
    }
    return { store, created: data === null && txs.length === 0 };
  }

  /** The PostgreSQL store at `url`, in `schema` (architecture.md, The store on PostgreSQL). */
  static async openPostgres(
    url: string,
    schema: string,
    keep?: number,
    node?: string,
  ): Promise<Store> {
    return (await import('./pg/open')).openPostgres(url, schema, keep, node);
  }

  /** A store over `data`, its commits made durable by `durability` (store/pg/open.ts). */
  static over(data: DataFileContents, durability: Durability): Store {
    const store = new Store();
    store.#load(data);
    store.#persistence = durability;
    return store;
  }

  /**
   * A store over `data`'s global scope alone, each of `workspaces` loaded from `source` when first
   * used and let go past `keep` records (residency.ts).
   */
  static away(
    data: DataFileContents,
    dues: ReadonlyMap<Scope, number | null>,
    durability: Durability,
    source: ScopeSource,
    keep: number,
  ): Store {
    const store = Store.over(data, durability);
    const residency = new Residency(source, store.#scopes.resident(), keep);
    store.#residency = residency;
    store.#scopes.away = residency.away;
    store.#scopes.onDrop = (scope) => residency.forget(scope);
    residency.reset(dues);
    return store;
  }

  /** Every record let go for `data`: read back from PostgreSQL after a lost commit (pg/open.ts). */
  reload(data: DataFileContents, away: ReadonlyMap<Scope, number | null> = new Map()): void {
    const seq = this.#seq;
    this.#load(data, true);
    this.#residency?.reset(away);
    this.#seq = Math.max(seq, data.seq);
  }

  /** On PostgreSQL served by several nodes, what this one coordinates with the others by. */
  get cluster(): Cluster | undefined {
    return this.#persistence?.cluster;
  }

  /** Another node wrote `scope` (pg/cluster.ts): memory takes it, told as commits are. */
  takeFresh(scope: Scope, fresh: Fresh): void {
    const changes = this.#scopes.takeFresh(scope, fresh);
    if (changes.length > 0) {
      for (const listener of this.#applied) {
        listener(changes);
      }
      if (scope !== GLOBAL) {
        // Its work is scheduled again from its records, as at a load: what another node's write
        // made due (a storm list building, a retry) is known here before a clock move runs it.
        this.#scopes.loaded.parsed(scope);
        this.#scopes.loaded.tell();
      }
    }
  }

  /** Workspaces another node deleted: dropped here too, and told as a commit's drop is. */
  dropFresh(scopes: readonly Scope[]): void {
    for (const scope of scopes) {
      this.#scopes.apply([[scope, DROP, DROP]]);
      for (const listener of this.#droppedListeners) {
        listener(scope);
      }
    }
  }

  /** On PostgreSQL, which workspaces are in memory; undefined for a store that holds them all. */
  get residency(): Residency | undefined {
    return this.#residency;
  }

  /** Loads workspace `scope` if it is away from memory (PostgreSQL); before anything reads it. */
  ensure(scope: Scope): Promise<void> {
    return this.#residency?.ensure(scope) ?? Promise.resolve();
  }

  /** `listener` for each workspace loaded from PostgreSQL, before the first read of it. */
  onInstall(listener: (scope: Scope) => void): void {
    const before = this.#scopes.onInstall;
    this.#scopes.onInstall = (scope) => {
      before(scope);
      listener(scope);
    };
  }

  /** Whether workspace `scope` is away from memory (PostgreSQL): what finds by id alone skips it. */
  isAway(scope: Scope): boolean {
    return this.#residency?.away.has(scope) ?? false;
  }

  /** Loads `scope` if it is away and keeps it in memory until the function returned is called. */
  use(scope: Scope): Promise<() => void> {
    return this.#residency?.use(scope) ?? Promise.resolve(() => {});
  }

  /** Keeps `scope` in memory until the function returned is called (a request, a task using it). */
  hold(scope: Scope): () => void {
    return this.#residency?.hold(scope) ?? (() => {});
  }

  /** Each commit then tells the durability when each workspace it wrote next has work due. */
  tracksDue(dueOf: (scope: Scope) => number | null): void {
    this.#dueOf = dueOf;
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
    this.#scopes.loaded.add(listener, this.#scopes.inMemory());
  }

  /** Whether workspaces of the data file are still waiting to be parsed. */
  get unparsed(): number {
    return this.#scopes.unparsed;
  }

  /** Workspaces and collections of the data file still waiting to be parsed. */
  get waiting(): number {
    return this.#scopes.waiting;
  }

  /** Parses one waiting workspace, else collection (background loading); whether any are left. */
  parseNext(): boolean {
    return this.#scopes.parseNext();
  }

  /** Loads workspace `scope` and tells the onLoaded listeners now: its clock is about to move. */
  async load(scope: Scope): Promise<void> {
    await this.ensure(scope);
    this.#scopes.parse(scope);
    this.#scopes.loaded.tell();
  }

  /** Parses every waiting workspace and tells the listeners: all due work, before the clock moves. */
  parseAll(): void {
    while (this.#scopes.unparsed > 0) {
      this.parseNext();
    }
    this.#scopes.loaded.tell();
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
      const dropped = this.#scopes.dropped;
      const late =
        dropped.size === 0
          ? undefined
          : ops.find(([scope, coll]) => coll !== DROP && dropped.has(scope));
      if (late !== undefined) {
        throw new ScopeDropped(late[0]);
      }
      this.#residency?.admit(ops, this.#seq + 1, (scope) => this.#scopes.has(scope));
      if (ops.length > 0) {
        this.#scopes.apply(ops);
        this.#seq += 1;
        this.#persistence?.enqueue(this.#seq, ops);
      }
      this.#tx = undefined;
      for (const listener of this.#applied) {
        listener(changes);
      }
      this.#noteDue(ops);
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

  /** Closed: the loops of its own that serve it stop at their next turn. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Flushes (and folds the journal into the data file a last time), then lets go. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#residency?.stop();
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
    return this.#scopes.all();
  }

  /** The collections of a scope that hold records, as committed. */
  collections(scope: Scope): string[] {
    return this.#scopes.collections(scope);
  }

  /** What each workspace the commit wrote has due next, for a start that loads none of them. */
  #noteDue(ops: readonly Op[]): void {
    const dueOf = this.#dueOf;
    const persistence = this.#persistence;
    if (dueOf === undefined || persistence?.noteDue === undefined) {
      return;
    }
    // A workspace loaded for this request is scanned for its work now, not once the answer is on
    // its way: its due must count the work it held before this commit.
    this.#scopes.loaded.tell();
    for (const [scope, coll] of ops) {
      if (scope !== GLOBAL && coll !== DROP) {
        persistence.noteDue(scope, dueOf(scope));
      }
    }
  }

  #collection(scope: Scope, coll: string): Collection | undefined {
    return this.#scopes.collection(scope, coll);
  }

  #load(data: DataFileContents, clear = false): void {
    this.#seq = data.seq;
    this.#scopes.load(data, clear);
  }
}
