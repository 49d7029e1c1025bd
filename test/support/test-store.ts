import { inject } from 'vitest';
import { Store } from '../../src/store';
import { dumpScope } from '../../src/store/dump';
import type { Durability } from '../../src/store/persistence';
import { PgPersistence } from '../../src/store/pg/persistence';
import type { ScopeSource } from '../../src/store/residency';
import {
  emptyContents,
  GLOBAL,
  type LoadedScope,
  type Op,
  type ScopeData,
} from '../../src/store/types';

// The store a test's harness runs on (issue 39): in memory, or, in the `postgres` project
// (vitest.config.ts), on PostgreSQL, every commit written to a schema of the harness's own before
// its answer goes, as `svc serve --store` does. When the harness's test (or file, for one made
// before its tests) ends, what PostgreSQL holds must be exactly what memory holds: a write that
// PostgreSQL took differently, or refused, fails the test that made it.

declare module 'vitest' {
  export interface ProvidedContext {
    /** The database the `postgres` project's harnesses make their schemas in (pg-global.ts). */
    pgHarnessUrl: string;
  }
}

export const ON_POSTGRES = process.env.SVC_TEST_STORE === 'postgres';

/** A new, empty store for a harness: in memory, or on PostgreSQL in the `postgres` project. */
export function testStore(): Store {
  if (!ON_POSTGRES) {
    return Store.memory();
  }
  const durability = new Connecting(inject('pgHarnessUrl'), `h_${process.pid}_${++made}`);
  // Every workspace is let go before each request (harness.ts): each is loaded again through the
  // door its request comes by, as on `svc serve --store` once memory is full (store/residency.ts).
  const store = Store.away(
    emptyContents(),
    new Map(),
    durability,
    durability,
    Number.POSITIVE_INFINITY,
  );
  durability.store = store;
  schemas.set(store, durability.schema);
  return store;
}

const schemas = new WeakMap<Store, string>();

/** The schema a harness's store writes to, on PostgreSQL. */
export const schemaOf = (store: Store): string | undefined => schemas.get(store);

let made = 0;
/** The test running (counted from 1), or 0 between tests. */
let testNo = 0;
let tests = 0;
/** What a harness connected to PostgreSQL: checked and let go when its test or file ends. */
export interface Settling {
  /** The test that made it, or 0 when made outside any test. */
  readonly madeIn: number;
  /** What PostgreSQL holds against what memory holds (a problem, or undefined); then let go. */
  settle(): Promise<string | undefined>;
}

/** The stores connected to PostgreSQL now. */
let open: Settling[] = [];

/** `connected` is checked and let go when its test (or its file) ends. */
export function settles(connected: Settling): void {
  open.push(connected);
}

/** The test running now (counted from 1), or 0 between tests: what `madeIn` records. */
export const runningTest = (): number => testNo;

/** A test starts: stores made from here on are checked and let go when it ends. */
export function testStarts(): void {
  testNo = ++tests;
}

/**
 * Checks and lets go the stores made in the test that ended; at the end of a file, every store
 * connected. A store a file shares between its tests (made before them, or in its first test and
 * used in the next) is checked and let go once, when the file ends: checking it at every test's
 * end would read all of it again each time.
 */
export async function settleTestStores(scope: 'test' | 'file'): Promise<void> {
  const ending = open.filter((d) => scope === 'file' || (testNo > 0 && d.madeIn === testNo));
  open = open.filter((d) => !ending.includes(d));
  testNo = 0;
  const problems: string[] = [];
  for (const durability of ending) {
    const problem = await durability.settle().catch((err: Error) => err.message);
    if (problem) {
      problems.push(problem);
    }
  }
  if (problems.length > 0) {
    throw new Error(problems.join('\n'));
  }
}

/**
 * The PostgreSQL store's durability, connected on the first commit (so a harness is made at once)
 * and let go by `settle` when the test ends; a harness a file shares between its tests connects
 * again on its next commit. Commits queue while it connects, then go as they would in svc.
 */
class Connecting implements Durability, ScopeSource, Settling {
  #opened: Promise<PgPersistence> | undefined;
  #real: PgPersistence | undefined;
  #queued: { seq: number; ops: Op[] }[] = [];
  /** Every commit up to this one is in PostgreSQL and the connections are let go. */
  #settledSeq = 0;
  readonly #url: string;
  readonly schema: string;
  /** The test that made it, or 0 when made outside any test. */
  readonly madeIn = testNo;
  store: Store | undefined;

  constructor(url: string, schema: string) {
    this.#url = url;
    this.schema = schema;
  }

  #connect(): Promise<PgPersistence> {
    if (this.#opened === undefined) {
      settles(this);
      this.#opened = PgPersistence.open(this.#url, this.schema).then(({ persistence }) => {
        this.#real = persistence;
        for (const { seq, ops } of this.#queued.splice(0)) {
          persistence.enqueue(seq, ops);
        }
        return persistence;
      });
      this.#opened.catch(() => undefined); // told to whoever waits for a commit
    }
    return this.#opened;
  }

  get journalBytes(): number {
    return 0;
  }

  get durableSeq(): number {
    return this.#real?.durableSeq ?? this.#settledSeq;
  }

  async readScope(scope: string): Promise<LoadedScope> {
    return (await this.#connect()).readScope(scope);
  }

  async holdersOf(names: readonly string[]): Promise<string[]> {
    return (await this.#connect()).holdersOf(names);
  }

  async counts(scopes: readonly string[], colls: readonly string[]): Promise<Map<string, number>> {
    return (await this.#connect()).counts(scopes, colls);
  }

  async learnDue(scope: string, due: number | null): Promise<void> {
    return (await this.#connect()).learnDue(scope, due);
  }

  noteDue(scope: string, due: number | null): void {
    this.#real?.noteDue(scope, due);
  }

  get available(): boolean {
    return this.#real?.available ?? true;
  }

  enqueue(seq: number, ops: Op[]): void {
    if (this.#real) {
      this.#real.enqueue(seq, ops);
    } else {
      this.#queued.push({ seq, ops });
      void this.#connect().catch(() => undefined);
    }
  }

  waitFor(seq: number): Promise<void> {
    if (seq <= this.#settledSeq) {
      return Promise.resolve();
    }
    return this.#connect().then((p) => p.waitFor(seq));
  }

  foldSoon(): void {}

  compact(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    await this.settle();
  }

  /**
   * What PostgreSQL holds against what memory holds, once every commit is in; then the
   * connections go. A runtime's timer may commit meanwhile: compared again until both agree.
   */
  async settle(): Promise<string | undefined> {
    const real = await this.#opened;
    const store = this.store;
    if (real === undefined || store === undefined) {
      return undefined;
    }
    try {
      // Every workspace in memory, to be compared: those let go are loaded again.
      const release = await store.residency?.holdAll(store.scopes());
      release?.();
      return await disagreement(
        this.schema,
        async () => (await real.readAll()) as Parsed,
        [store],
        () => store.sync(),
      );
    } finally {
      this.#settledSeq = store.seq;
      this.#real = undefined;
      this.#opened = undefined;
      await real.close();
    }
  }
}
/**
 * What PostgreSQL holds (`held`) against what each of `stores` holds, each caught up by `catchUp`
 * first: a problem naming the first that differs, or undefined. A runtime's timer may commit
 * meanwhile, so a difference is read again, three times at most.
 */
export async function disagreement(
  schema: string,
  held: () => Promise<Parsed>,
  stores: readonly Store[],
  catchUp: (store: Store) => Promise<void>,
): Promise<string | undefined> {
  let problem: string | undefined;
  for (let attempt = 0; attempt < 3; attempt++) {
    for (const store of stores) {
      await catchUp(store);
    }
    const inPg = canonical(await held());
    problem = undefined;
    for (const [i, store] of stores.entries()) {
      const memory = canonical(contentsOf(store));
      if (inPg !== memory) {
        const who = stores.length === 1 ? 'memory' : `node n${i}`;
        problem = `schema ${schema}: PostgreSQL holds ${inPg.slice(0, 2000)}\nbut ${who} holds ${memory.slice(0, 2000)}`;
        break;
      }
    }
    if (problem === undefined) {
      break;
    }
  }
  return problem;
}

/** PostgreSQL's contents are read parsed, every scope (pg/persistence.ts, contentsOf). */
export type Parsed = { global: ScopeData; workspaces: Record<string, ScopeData> };

function contentsOf(store: Store): Parsed {
  const scope = (s: string) =>
    Object.fromEntries(
      Object.entries(dumpScope(store, s)).map(([coll, recs]) => [
        coll,
        Object.fromEntries(recs.map((r) => [r.id, r])),
      ]),
    );
  return {
    global: scope(GLOBAL),
    workspaces: Object.fromEntries(store.scopes().map((s) => [s, scope(s)])),
  };
}

/** Every scope's records as one text: scopes, collections and ids sorted, each record as written. */
function canonical(data: Parsed): string {
  const sorted = <T>(o: Record<string, T>) =>
    Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1));
  const scopes: [string, ScopeData][] = [[GLOBAL, data.global], ...sorted(data.workspaces)];
  return scopes
    .map(([scope, colls]) =>
      sorted(colls)
        .filter(([, recs]) => Object.keys(recs).length > 0)
        .flatMap(([coll, recs]) =>
          sorted(recs).map(([id, rec]) => `${scope} ${coll} ${id} ${JSON.stringify(rec)}`),
        )
        .join('\n'),
    )
    .filter((text) => text !== '')
    .join('\n');
}
