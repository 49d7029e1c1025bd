import { DROP, GLOBAL, type LoadedScope, type Op, type Scope } from './types';

// Which workspaces a store on PostgreSQL holds in memory (architecture.md, The store on
// PostgreSQL): none at start; each is loaded the first time something needs it, kept while it is
// used, and let go, least recently used first, once memory holds more records than its budget.
// The synchronous store cannot wait for a read, so whatever touches a workspace awaits `ensure`
// first (the /v1 door, the control API's and web app's door, every scheduled task); a read of a
// workspace still away is a bug, refused (ScopeAway) rather than answered as empty.

/** Where a workspace away from memory is read from, and what it knows of it without reading it. */
export interface ScopeSource {
  /** One workspace's records, in the order memory keeps them. */
  readScope(scope: Scope): Promise<LoadedScope>;
  /** The workspaces holding a record by one of these ids, or second names (a portal token...). */
  holdersOf(names: readonly string[]): Promise<Scope[]>;
  /** How far commits are durable: a workspace with a write beyond it stays in memory. */
  readonly durableSeq: number;
  /** How many records each of `scopes` holds in each of `colls`, by `${scope} ${coll}`. */
  counts(scopes: readonly Scope[], colls: readonly string[]): Promise<Map<string, number>>;
  /** A workspace's next work due (null: none), learnt by loading it, where none was known. */
  learnDue(scope: Scope, due: number | null): Promise<void>;
}

/** What residency asks of the store it keeps: to take a workspace in, or let it go. */
export interface Resident {
  install(scope: Scope, colls: LoadedScope): void;
  evict(scope: Scope): void;
  /** How many records a workspace in memory holds; undefined for one memory does not hold. */
  sizeOf(scope: Scope): number | undefined;
  /** The workspace a global record by this id is of (a key, an OAuth connection), if any. */
  workspaceOfGlobal(id: string): Scope | undefined;
  /** The workspaces in memory holding a record by this id, in any collection. */
  inMemoryHolders(id: string): Scope[];
}

/** A read of a workspace not loaded: a path that forgot `ensure` (answered 500, never as empty). */
export class ScopeAway extends Error {
  constructor(readonly scope: Scope) {
    super(`workspace ${scope} is not in memory: it is loaded before use`);
  }
}

/** A write this node made without the lease of its scope: a path that forgot to take it. */
export class Unleased extends Error {
  constructor(readonly scope: Scope) {
    super(`a write to scope ${scope} without its lease: it is taken before the write`);
  }
}

/** Records a node keeps in memory before it lets idle workspaces go (SVC_STORE_KEEP). */
export const DEFAULT_KEEP = 200_000;
/** A workspace's due when nothing of it falls due (a due not known is null). */
export const NOTHING_DUE = Number.MAX_SAFE_INTEGER;
/** How often a node looks for idle workspaces to let go. */
const TRIM_MS = 1000;

/**
 * Ids (UUIDs) and tokens are 16 or more letters, digits, - and _: nothing else is looked for (nor
 * sent to SQL), so a page's own words (`inspector`, `notifications`) cost no query.
 */
const NAME = /^[A-Za-z0-9_-]{16,200}$/;
const namesRecord = (name: string) => NAME.test(name);

export class Residency {
  readonly #source: ScopeSource;
  readonly #store: Resident;
  readonly #keep: number;
  /** Workspaces PostgreSQL holds and memory does not. */
  readonly away = new Set<Scope>();
  readonly #loading = new Map<Scope, Promise<void>>();
  /** Users of a workspace right now (a request, a task): it is not let go under them. */
  readonly #holds = new Map<Scope, number>();
  /** Workspaces in memory, least recently used first. */
  readonly #used = new Map<Scope, true>();
  /** The last commit that wrote each workspace. */
  readonly #written = new Map<Scope, number>();
  readonly #vetoes: ((scope: Scope) => boolean)[] = [];
  /**
   * Resolves once every workspace whose due was not known was loaded once to learn it (the
   * runtime's survey at start): a move of the server's clock waits for it.
   */
  surveying: Promise<void> = Promise.resolve();
  /** Workspaces loaded so far: what is built from every workspace in memory is stale once it moves. */
  loads = 0;
  /** Raised by a read back: a load begun before it brings nothing in. */
  #generation = 0;
  #dues: ReadonlyMap<Scope, number | null> = new Map();
  /**
   * Several nodes (pg/cluster.ts): before a hold is given, the scopes read again where another
   * node wrote them since, and the leases of those the holder writes taken.
   */
  coordinate:
    | ((reads: readonly Scope[], writes: readonly Scope[], turn: boolean) => Promise<() => void>)
    | undefined;
  readonly #onReset: ((dues: ReadonlyMap<Scope, number | null>) => void)[] = [];

  readonly #timer: NodeJS.Timeout | undefined;

  constructor(source: ScopeSource, store: Resident, keep: number) {
    this.#source = source;
    this.#store = store;
    this.#keep = keep;
    // A budget of Infinity (the tests) lets go only when told to, and keeps no timer, which would
    // keep the store from being collected.
    this.#timer = Number.isFinite(keep)
      ? setInterval(() => this.trim(), TRIM_MS).unref()
      : undefined;
  }

  /** The store closed: nothing more is let go. */
  stop(): void {
    clearInterval(this.#timer);
  }

  /** Counts of workspaces away, read where they are: a page of every workspace loads none. */
  async counts(scopes: readonly Scope[], colls: readonly string[]): Promise<Map<string, number>> {
    return scopes.length === 0 ? new Map() : this.#source.counts(scopes, colls);
  }

  learnDue(scope: Scope, due: number | null): Promise<void> {
    return this.#source.learnDue(scope, due);
  }

  /**
   * Every workspace of `dues` away (the store just opened, or read back), each loaded on first
   * use; `dues` says when each has work due on its own clock (null: not known).
   */
  reset(dues: ReadonlyMap<Scope, number | null>): void {
    this.#generation += 1;
    this.away.clear();
    this.#used.clear();
    this.#written.clear();
    for (const scope of dues.keys()) {
      this.away.add(scope);
    }
    for (const listener of this.#onReset) {
      listener(dues);
    }
    this.#dues = dues;
  }

  /** `listener` with every workspace's due now, and again each time the store is read back. */
  onReset(listener: (dues: ReadonlyMap<Scope, number | null>) => void): void {
    this.#onReset.push(listener);
    listener(this.#dues);
  }

  /** Loads `scope` if it is away, and marks it used. */
  async ensure(scope: Scope): Promise<void> {
    while (this.away.has(scope)) {
      await this.#loadingOf(scope);
    }
    this.#touch(scope);
  }

  /**
   * Loads `scope` if it is away and holds it until the function returned is called. The hold is
   * taken in the same turn as the workspace is found in memory: nothing can let it go between.
   */
  async use(scope: Scope): Promise<() => void> {
    if (
      this.coordinate !== undefined &&
      scope !== GLOBAL &&
      this.#store.sizeOf(scope) === undefined
    ) {
      // Several nodes: a workspace this node has not heard of may be another's new one.
      this.away.add(scope);
    }
    while (this.away.has(scope)) {
      await this.#loadingOf(scope);
    }
    return this.hold(scope);
  }

  #loadingOf(scope: Scope): Promise<void> {
    let loading = this.#loading.get(scope);
    if (loading === undefined) {
      loading = this.#load(scope).finally(() => this.#loading.delete(scope));
      this.#loading.set(scope, loading);
    }
    return loading;
  }

  async #load(scope: Scope): Promise<void> {
    const generation = this.#generation;
    const colls = await this.#source.readScope(scope);
    // Dropped meanwhile, or the store read back: what was read is not memory's to take.
    if (generation === this.#generation && this.away.has(scope)) {
      this.away.delete(scope);
      this.#store.install(scope, colls);
      this.loads += 1;
    }
  }

  /**
   * With several nodes, the global scope as the last node left it (what names the workspaces a
   * request is about: keys, connections); else nothing to do.
   */
  async readGlobal(): Promise<void> {
    if (this.coordinate !== undefined) {
      (await this.coordinate([GLOBAL], [], false))();
    }
  }

  /**
   * Loads the workspaces that `names` name, or that hold a record by one of them (an id, a
   * portal token): what the control API and the web app find by an id alone. Each is held until
   * the function returned is called.
   */
  async holdNamed(names: readonly string[], lease?: 'all'): Promise<() => void> {
    const wanted = names.filter(namesRecord);
    if (wanted.length > 0) {
      // A workspace, key or connection another node made is known by its id below.
      await this.readGlobal();
    }
    const scopes = new Set(wanted.filter((name) => this.#used.has(name) || this.away.has(name)));
    for (const name of wanted) {
      const owner = this.#store.workspaceOfGlobal(name);
      if (owner !== undefined) {
        scopes.add(owner);
      }
    }
    const rest = wanted.filter((name) => !scopes.has(name));
    // Looked up even when no workspace is away: the one holding it is held, not let go mid-way.
    // With several nodes, so is one memory says holds it: another node may have moved it since.
    const found = rest.length > 0 ? await this.#source.holdersOf(rest) : [];
    const moved = this.coordinate ? rest.flatMap((name) => this.#store.inMemoryHolders(name)) : [];
    const all = new Set([...scopes, ...found, ...moved]);
    return this.holdAll(all, { global: true, lease, turn: true });
  }

  /**
   * Loads each of `workspaces` (a whole-store operation), each held until `release` is called.
   * With several nodes, each (and with `global`, the global scope) is as the last node to write it
   * left it, and `lease` takes the leases of all of them (`'all'`) or of those named.
   */
  async holdAll(
    workspaces: Iterable<Scope>,
    opts: {
      global?: boolean;
      lease?: 'all' | readonly Scope[] | undefined;
      /** A request come in: it waits its node's turn at a lease used long (pg/cluster.ts). */
      turn?: boolean;
      /** The workspaces were read as the last node left them already in this request. */
      checked?: boolean;
    } = {},
  ): Promise<() => void> {
    const releases: (() => void)[] = [];
    const release = () => {
      for (const one of releases) {
        one();
      }
    };
    try {
      const held: Scope[] = [];
      for (const scope of workspaces) {
        releases.push(await this.use(scope));
        held.push(scope);
      }
      if (this.coordinate !== undefined) {
        const reads = opts.global ? [GLOBAL, ...held] : held;
        const writes = opts.lease === 'all' ? reads : (opts.lease ?? []);
        // A scope leased is read again under its lock; one checked already needs no asking.
        const asked = opts.checked ? reads.filter((scope) => !held.includes(scope)) : reads;
        releases.push(await this.coordinate(asked, writes, opts.turn === true));
      }
    } catch (err) {
      release();
      throw err;
    }
    return release;
  }

  /** A workspace another node made: away, loaded when first used. */
  learn(scope: Scope): void {
    if (this.#store.sizeOf(scope) === undefined) {
      this.away.add(scope);
    }
  }

  /** Marks `scope` in use until the function returned is called. */
  hold(scope: Scope): () => void {
    if (scope === GLOBAL) {
      return () => {};
    }
    this.#holds.set(scope, (this.#holds.get(scope) ?? 0) + 1);
    this.#touch(scope);
    let released = false;
    return () => {
      if (!released) {
        released = true;
        const left = (this.#holds.get(scope) ?? 1) - 1;
        if (left === 0) {
          this.#holds.delete(scope);
        } else {
          this.#holds.set(scope, left);
        }
      }
    };
  }

  /** A workspace may be let go only when this says it is idle as well (work of it running...). */
  keepWhile(busy: (scope: Scope) => boolean): void {
    this.#vetoes.push(busy);
  }

  /**
   * Before a commit `seq` applies `ops`: a write to a workspace away from memory is refused
   * before any of it applies; so is, with several nodes, a write to a scope this node does not
   * hold the lease of (pg/cluster.ts), but one it makes new (`held` says what memory holds).
   */
  admit(ops: readonly Op[], seq: number, held: (scope: Scope) => boolean): void {
    for (const [scope, coll] of ops) {
      if (coll !== DROP && this.away.has(scope)) {
        throw new ScopeAway(scope);
      }
      if (this.mayWrite && !this.mayWrite(scope, scope !== GLOBAL && !held(scope))) {
        throw new Unleased(scope);
      }
      this.wrote(scope, seq);
    }
  }

  /** Several nodes: whether this node may write `scope` now (`fresh`: it makes it new). */
  mayWrite: ((scope: Scope, fresh: boolean) => boolean) | undefined;

  /** `scope` was written by commit `seq`, or made new in memory. */
  wrote(scope: Scope, seq: number): void {
    if (scope !== GLOBAL) {
      this.#written.set(scope, seq);
      if (!this.#used.has(scope)) {
        this.#used.set(scope, true);
      }
    }
  }

  /** A workspace dropped: nothing is kept of it. */
  forget(scope: Scope): void {
    this.away.delete(scope);
    this.#used.delete(scope);
    this.#written.delete(scope);
    this.#holds.delete(scope);
  }

  /** Lets idle workspaces go, least recently used first, until memory holds at most `keep` records. */
  trim(keep = this.#keep): number {
    let held = 0;
    for (const scope of this.#used.keys()) {
      held += this.#store.sizeOf(scope) ?? 0;
    }
    let let_go = 0;
    for (const scope of [...this.#used.keys()]) {
      if (held <= keep) {
        break;
      }
      if (this.#idle(scope)) {
        held -= this.#store.sizeOf(scope) ?? 0;
        this.#used.delete(scope);
        this.#written.delete(scope);
        this.away.add(scope);
        this.#store.evict(scope);
        let_go += 1;
      }
    }
    return let_go;
  }

  /** The workspaces in memory now. */
  inMemory(): Scope[] {
    return [...this.#used.keys()];
  }

  /** Workspaces in memory now. */
  get resident(): number {
    return this.#used.size;
  }

  #idle(scope: Scope): boolean {
    return (
      !this.#holds.has(scope) &&
      !this.#loading.has(scope) &&
      (this.#written.get(scope) ?? 0) <= this.#source.durableSeq &&
      !this.#vetoes.some((busy) => busy(scope))
    );
  }

  /** A workspace memory does not hold (a deleted one, an id that names none) is not tracked. */
  #touch(scope: Scope): void {
    if (scope === GLOBAL) {
      return; // always in memory
    }
    this.#used.delete(scope);
    if (this.#store.sizeOf(scope) !== undefined) {
      this.#used.set(scope, true);
    }
  }
}
