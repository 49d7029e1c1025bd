import { Collection } from './collection';
import { caughtUpOps, type Fresh, freshOps } from './fresh';
import { parsed, type ReplayOp } from './journal';
import { LoadedListeners } from './loaded';
import { type Resident, ScopeAway } from './residency';
import {
  type Change,
  type DataFileContents,
  DROP,
  GLOBAL,
  type LoadedScope,
  type Op,
  type Scope,
  UnparsedScope,
} from './types';

/**
 * Every scope's collections in memory: parsed from the data file's bytes the first time anything
 * reads them, or (on PostgreSQL) loaded by residency.ts and let go again. What the Store's
 * transactions read and apply their writes to.
 */
export class Scopes {
  readonly #scopes = new Map<Scope, Map<string, Collection>>();
  /** Workspaces of the data file not parsed yet: each is, the first time anything reads it. */
  readonly #unparsed = new Map<Scope, UnparsedScope>();
  /** The journal's ops for a workspace not parsed yet, applied when it is (a restart parses less). */
  readonly #replayed = new Map<Scope, ReplayOp[]>();
  readonly loaded = new LoadedListeners();
  /** Collections still the data file's bytes, for the background parse to take in turn. */
  #spans: Collection[] = [];
  /** Workspaces dropped whole: no later write may name one. */
  readonly dropped = new Set<Scope>();
  /** The data file the unparsed workspaces are read from. */
  path = '';
  /** Workspaces away from memory (residency.ts): reading one is refused. */
  away: ReadonlySet<Scope> = new Set();

  /** Every scope let go, then `data` (the data file's contents, or PostgreSQL's global scope). */
  load(data: DataFileContents, clear = false): void {
    if (clear) {
      this.loaded.clear();
      this.#scopes.clear();
      this.#unparsed.clear();
      this.#replayed.clear();
      this.#spans = [];
    }
    this.#loadScope(GLOBAL, data.global);
    for (const [wsId, colls] of Object.entries(data.workspaces)) {
      if (colls instanceof UnparsedScope) {
        this.#unparsed.set(wsId, colls);
      } else {
        this.#loadScope(wsId, colls);
      }
    }
  }

  /** What residency.ts takes workspaces in and lets them go through. */
  resident(): Resident {
    return {
      install: (scope, colls) => {
        this.#loadScope(scope, colls);
        this.loaded.parsed(scope);
        this.onInstall(scope);
      },
      evict: (scope) => {
        this.#scopes.delete(scope);
        this.loaded.forget(scope);
      },
      sizeOf: (scope) => {
        const colls = this.#scopes.get(scope);
        if (colls === undefined) {
          return undefined;
        }
        let size = 0;
        for (const collection of colls.values()) {
          size += collection.byId.size;
        }
        return size;
      },
      inMemoryHolders: (id) => {
        const holders: Scope[] = [];
        for (const [scope, colls] of this.#scopes) {
          if (scope !== GLOBAL && [...colls.values()].some((c) => c.byId.has(id))) {
            holders.push(scope);
          }
        }
        return holders;
      },
      workspaceOfGlobal: (id) => {
        for (const collection of this.#scopes.get(GLOBAL)?.values() ?? []) {
          const owner = (collection.byId.get(id) as { workspace_id?: unknown } | undefined)
            ?.workspace_id;
          if (typeof owner === 'string') {
            return owner;
          }
        }
        return undefined;
      },
    };
  }

  /** Whether `scope` is in memory. */
  has(scope: Scope): boolean {
    return this.#scopes.has(scope);
  }

  /** Workspaces in memory, the global scope aside. */
  inMemory(): Scope[] {
    return [...this.#scopes.keys()].filter((scope) => scope !== GLOBAL);
  }

  /** The scopes that hold records, the global one aside; each workspace's is one. */
  all(): Scope[] {
    const out = new Set([...this.#scopes.keys(), ...this.#unparsed.keys(), ...this.away]);
    out.delete(GLOBAL);
    return [...out];
  }

  get unparsed(): number {
    return this.#unparsed.size;
  }

  get waiting(): number {
    return this.#unparsed.size + this.#spans.length;
  }

  /** Parses one waiting workspace, else collection (background loading); whether any are left. */
  parseNext(): boolean {
    const next = this.#unparsed.keys().next();
    if (!next.done) {
      this.parse(next.value);
    } else {
      const collection = this.#spans.pop();
      if (collection?.unparsed) {
        void collection.byId; // parsed on first use: this is its use
      }
    }
    return this.waiting > 0;
  }

  /** The collections of a scope that hold records, as committed. */
  collections(scope: Scope): string[] {
    this.parse(scope);
    const out: string[] = [];
    for (const [name, collection] of this.#scopes.get(scope) ?? []) {
      if (collection.byId.size > 0) {
        out.push(name);
      }
    }
    return out;
  }

  collection(scope: Scope, coll: string): Collection | undefined {
    this.parse(scope);
    return this.#scopes.get(scope)?.get(coll);
  }

  /** Parses `scope` if it still waits in the data file's bytes; every read and write asks. */
  parse(scope: Scope): void {
    if (this.away.size > 0 && this.away.has(scope)) {
      throw new ScopeAway(scope);
    }
    const raw = this.#unparsed.size === 0 ? undefined : this.#unparsed.get(scope);
    if (raw === undefined) {
      return;
    }
    this.#loadScope(scope, raw.parse(this.path));
    this.#unparsed.delete(scope);
    const replayed = this.#replayed.get(scope);
    if (replayed !== undefined) {
      this.#replayed.delete(scope);
      this.apply(parsed(replayed));
    }
    this.loaded.parsed(scope);
  }

  /** A journal's transaction at start: held, still text, for a workspace not parsed yet. */
  replay(ops: readonly ReplayOp[]): void {
    const now: ReplayOp[] = [];
    for (const op of ops) {
      if (op[1] === DROP) {
        // What came before it in the transaction goes first; an unparsed workspace goes unparsed.
        this.apply(parsed(now.splice(0)));
        this.#drop(op[0]);
      } else if (!this.#unparsed.has(op[0])) {
        now.push(op);
      } else if (this.#replayed.has(op[0])) {
        this.#replayed.get(op[0])?.push(op);
      } else {
        this.#replayed.set(op[0], [op]);
      }
    }
    this.apply(parsed(now));
  }

  apply(ops: readonly Op[]): void {
    for (const [scope, coll, id, rec] of ops) {
      if (coll === DROP) {
        this.#drop(scope);
        continue;
      }
      this.parse(scope);
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

  /**
   * Another node wrote `scope` (pg/cluster.ts): memory takes its records as PostgreSQL holds them
   * now. The changes that made; none for a scope not in memory, read whole when first used.
   */
  takeFresh(scope: Scope, fresh: Fresh): Change[] {
    const colls = this.#scopes.get(scope);
    if (colls === undefined) {
      return [];
    }
    const held = (c: string) => colls.get(c)?.byId;
    const { ops, changes } =
      'whole' in fresh
        ? freshOps(scope, held, [...colls.keys()], fresh.whole)
        : caughtUpOps(scope, held, fresh.puts, fresh.deletes);
    this.apply(ops);
    return changes;
  }

  #drop(scope: Scope): void {
    this.#scopes.delete(scope);
    this.#unparsed.delete(scope);
    this.#replayed.delete(scope);
    this.loaded.forget(scope);
    this.dropped.add(scope);
    this.onDrop(scope);
  }

  /** Told of each workspace loaded from PostgreSQL, before anything reads it. */
  onInstall: (scope: Scope) => void = () => {};

  /** Told of each workspace dropped (residency forgets it). */
  onDrop: (scope: Scope) => void = () => {};

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
