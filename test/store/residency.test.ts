import { describe, expect, test } from 'vitest';
import { createRuntime, defaultConfig } from '../../src/runtime';
import { Store } from '../../src/store';
import { countsOf } from '../../src/store/held';
import type { Durability } from '../../src/store/persistence';
import { keepFromEnv } from '../../src/store/pg/open';
import { NOTHING_DUE, ScopeAway, type ScopeSource } from '../../src/store/residency';
import { emptyContents, type LoadedScope, type Op } from '../../src/store/types';

// Issue 39: a store on PostgreSQL holds no workspace at start; each is loaded when first used,
// kept while used, and let go past the node's budget, least recently used first, never while a
// request or a task holds it nor while a write to it waits for PostgreSQL. Here the database is a
// map (a fake source), so each rule is shown alone; test/store/pg-residency.test.ts runs it on
// PostgreSQL, and the `postgres` project runs every family's suite letting go before each request.

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';
const C = 'cccccccc-0000-4000-8000-000000000003';

/** A database in a map: each workspace's jobs; commits durable when `release` says. */
class FakeDatabase implements ScopeSource, Durability {
  readonly rows = new Map<string, Map<string, { id: string; n: number }>>();
  reads: string[] = [];
  durableSeq = 0;
  #queued = 0;
  dues = new Map<string, number | null>();

  constructor(jobs: Record<string, number>) {
    for (const [ws, count] of Object.entries(jobs)) {
      const records = new Map<string, { id: string; n: number }>();
      for (let i = 0; i < count; i++) {
        records.set(`${ws}-j${i}`, { id: `${ws}-j${i}`, n: i });
      }
      this.rows.set(ws, records);
    }
  }

  /** Loads that fail before one succeeds (the database away). */
  failing = 0;

  async readScope(scope: string): Promise<LoadedScope> {
    this.reads.push(scope);
    if (this.failing > 0) {
      this.failing -= 1;
      throw new Error('the database is not answering');
    }
    await new Promise((resolve) => setImmediate(resolve));
    return { jobs: new Map(this.rows.get(scope) ?? []) };
  }

  async holdersOf(names: readonly string[]): Promise<string[]> {
    return [...this.rows].filter(([, recs]) => names.some((n) => recs.has(n))).map(([ws]) => ws);
  }

  async counts(scopes: readonly string[]): Promise<Map<string, number>> {
    return new Map(scopes.map((s) => [`${s} jobs`, this.rows.get(s)?.size ?? 0]));
  }

  async learnDue(): Promise<void> {}

  readonly journalBytes = 0;
  enqueue(seq: number, _ops: Op[]): void {
    this.#queued = seq;
  }
  noteDue(scope: string, due: number | null): void {
    this.dues.set(scope, due);
  }
  /** Everything queued is now durable. */
  commitAll(): void {
    this.durableSeq = this.#queued;
  }
  waitFor(): Promise<void> {
    return Promise.resolve();
  }
  foldSoon(): void {}
  compact(): Promise<void> {
    return Promise.resolve();
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

function storeOver(db: FakeDatabase, keep: number): Store {
  const dues = new Map([...db.rows.keys()].map((ws) => [ws, null] as const));
  return Store.away(emptyContents(), dues, db, db, keep);
}

const jobsOf = (store: Store, ws: string) => store.count(ws, 'jobs');

describe('workspaces loaded when first used (residency)', () => {
  test('a store opened holds no workspace; one read before it is loaded is refused, never answered as empty', async () => {
    const db = new FakeDatabase({ [A]: 3 });
    const store = storeOver(db, Number.POSITIVE_INFINITY);
    expect(store.isAway(A)).toBe(true);
    expect(() => jobsOf(store, A)).toThrow(ScopeAway);
    expect(store.scopes()).toEqual([A]);
    await store.ensure(A);
    expect(jobsOf(store, A)).toBe(3);
    expect(db.reads).toEqual([A]);
  });

  test('two requests for one workspace at once read it once', async () => {
    const db = new FakeDatabase({ [A]: 2 });
    const store = storeOver(db, Number.POSITIVE_INFINITY);
    await Promise.all([store.ensure(A), store.ensure(A), store.ensure(A)]);
    expect(db.reads).toEqual([A]);
  });

  test('past its budget, idle workspaces go least recently used first, and come back the same', async () => {
    const db = new FakeDatabase({ [A]: 4, [B]: 4, [C]: 4 });
    const store = storeOver(db, 8);
    await store.ensure(A);
    await store.ensure(B);
    await store.ensure(C);
    await store.ensure(A); // A is now the most recently used
    expect(store.residency?.trim()).toBe(1);
    expect([A, B, C].map((ws) => store.isAway(ws))).toEqual([false, true, false]);
    await store.ensure(B);
    expect(jobsOf(store, B)).toBe(4);
    expect([...store.values(B, 'jobs')].map((j) => j.id)).toEqual([
      ...(db.rows.get(B)?.keys() ?? []),
    ]);
  });

  test('a workspace held (a request, a task) is not let go, and is once released', async () => {
    const db = new FakeDatabase({ [A]: 4 });
    const store = storeOver(db, 0);
    await store.ensure(A);
    const release = store.hold(A);
    expect(store.residency?.trim()).toBe(0);
    release();
    release(); // twice is once
    expect(store.residency?.trim()).toBe(1);
  });

  test('a workspace is held from the turn it is found in memory: nothing lets it go before its user runs', async () => {
    const db = new FakeDatabase({ [A]: 4 });
    const store = storeOver(db, 0);
    await store.ensure(A);
    const using = store.use(A);
    expect(store.residency?.trim()).toBe(0); // another request's trim, before this one resumes
    const release = await using;
    expect(jobsOf(store, A)).toBe(4);
    release();
    expect(store.residency?.trim()).toBe(1);
  });

  test('a workspace whose write PostgreSQL has not committed yet is not let go', async () => {
    const db = new FakeDatabase({ [A]: 1 });
    const store = storeOver(db, 0);
    await store.ensure(A);
    store.transaction((tx) => tx.workspace(A).put('jobs' as never, { id: 'new' } as never));
    expect(store.residency?.trim()).toBe(0);
    db.commitAll();
    expect(store.residency?.trim()).toBe(1);
  });

  test('a workspace running work (keepWhile) is not let go', async () => {
    const db = new FakeDatabase({ [A]: 1 });
    const store = storeOver(db, 0);
    let busy = true;
    store.residency?.keepWhile(() => busy);
    await store.ensure(A);
    expect(store.residency?.trim()).toBe(0);
    busy = false;
    expect(store.residency?.trim()).toBe(1);
  });

  test('a write to a workspace away is refused whole, before any of it applies', async () => {
    const db = new FakeDatabase({ [A]: 1, [B]: 1 });
    const store = storeOver(db, Number.POSITIVE_INFINITY);
    await store.ensure(A);
    const seq = store.seq;
    expect(() =>
      store.transaction((tx) => {
        tx.workspace(A).put('jobs' as never, { id: 'a-new' } as never);
        tx.scope<Record<string, { id: string }>>(B).put('jobs', { id: 'b-new' });
      }),
    ).toThrow(ScopeAway);
    expect(store.seq).toBe(seq);
    expect(store.workspace(A).get('jobs' as never, 'a-new')).toBeUndefined();
  });

  test('a workspace dropped while away is gone, and reading it loads nothing', async () => {
    const db = new FakeDatabase({ [A]: 1 });
    const store = storeOver(db, Number.POSITIVE_INFINITY);
    store.transaction((tx) => tx.drop(A));
    expect(store.isAway(A)).toBe(false);
    expect(store.scopes()).toEqual([]);
    await store.ensure(A);
    expect(db.reads).toEqual([]);
  });

  test('the records named by id or token load the workspaces holding them; unknown names load none', async () => {
    const db = new FakeDatabase({ [A]: 2, [B]: 2 });
    const store = storeOver(db, Number.POSITIVE_INFINITY);
    const release = await store.residency?.holdNamed([`${B}-j1`, 'no-such-record-anywhere', '']);
    expect([store.isAway(A), store.isAway(B)]).toEqual([true, false]);
    release?.();
  });

  test('each commit tells the durability when the workspaces it wrote next have work due', async () => {
    const db = new FakeDatabase({ [A]: 1 });
    const store = storeOver(db, Number.POSITIVE_INFINITY);
    store.tracksDue((scope) => (scope === A ? 1234 : null));
    await store.ensure(A);
    store.transaction((tx) => tx.workspace(A).put('jobs' as never, { id: 'x' } as never));
    expect(db.dues.get(A)).toBe(1234);
  });

  test('a commit to a workspace just loaded counts the work its records held before it', async () => {
    const db = new FakeDatabase({ [A]: 1 });
    const store = storeOver(db, Number.POSITIVE_INFINITY);
    const scheduled = new Map<string, number>();
    // What a start's scan of a workspace finds due (an invoice falling due, say).
    store.onLoaded((scope) => scheduled.set(scope, 5678));
    store.tracksDue((scope) => scheduled.get(scope) ?? null);
    await store.ensure(A);
    store.transaction((tx) => tx.workspace(A).put('jobs' as never, { id: 'x' } as never));
    expect(db.dues.get(A)).toBe(5678);
  });

  test('counts of a workspace away are read where it is, without loading it', async () => {
    const db = new FakeDatabase({ [A]: 5, [B]: 2 });
    const store = storeOver(db, Number.POSITIVE_INFINITY);
    await store.ensure(B);
    const counted = await countsOf(store, [A, B], ['jobs']);
    expect([counted(A, 'jobs'), counted(B, 'jobs')]).toEqual([5, 2]);
    expect(db.reads).toEqual([B]);
  });

  test('a task whose workspace cannot be loaded (the database away) runs again a second later', async () => {
    const db = new FakeDatabase({ [A]: 1 });
    // Nothing due known for it, so no load at start: the task's is the first.
    const store = Store.away(emptyContents(), new Map([[A, NOTHING_DUE]]), db, db, 10);
    const rt = createRuntime(store, defaultConfig({ log: () => {} }));
    let ran = 0;
    rt.scheduler.schedule('probe', rt.clock.nowMs(), () => ran++, A);
    db.failing = 1;
    await rt.scheduler.advanceTo(rt.clock.nowMs());
    expect([ran, rt.scheduler.has('probe'), store.isAway(A)]).toEqual([0, true, true]);
    await rt.scheduler.advanceTo(rt.clock.nowMs() + 1000);
    expect([ran, store.isAway(A)]).toEqual([1, false]);
    await store.close();
  });
});

describe('SVC_STORE_KEEP', () => {
  test('unset is 200,000 records; a whole number is taken; anything else is refused with one line', () => {
    expect(keepFromEnv({})).toBe(200_000);
    expect(keepFromEnv({ SVC_STORE_KEEP: '0' })).toBe(0);
    expect(keepFromEnv({ SVC_STORE_KEEP: ' 5000 ' })).toBe(5000);
    for (const bad of ['lots', '-1', '1.5', '1e6']) {
      expect(() => keepFromEnv({ SVC_STORE_KEEP: bad })).toThrow(
        `SVC_STORE_KEEP must be a whole number of records (0 or more): not ${bad}`,
      );
    }
  });
});
