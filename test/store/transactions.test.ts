import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { type Change, type Rec, ScopedStore, Store } from '../../src/store';
import { cleanup, tempDir } from '../support/spawn';

type Thing = Rec & { created_at: string; n: number };
interface Things {
  things: Thing;
  audit: Rec & { created_at: string; of: string; n: number | null };
}

const WS = 'ws_tx';
const thing = (id: string, n = 1): Thing => ({ id, created_at: '2026-01-01T00:00:00.000Z', n });
const put = (store: Store, rec: Thing) =>
  store.transaction((tx) => tx.scope<Things>(WS).put('things', rec));
const things = (store: Store) => new ScopedStore<Things>(store, WS);

afterEach(cleanup);

describe('transactions', () => {
  test('a transaction that throws writes nothing', async () => {
    const { store } = await Store.open(join(await tempDir(), 'data.json'));
    put(store, thing('a', 1));
    await store.sync();
    const seq = store.seq;
    const journal = store.journalBytes;

    expect(() =>
      store.transaction((tx) => {
        const ws = tx.scope<Things>(WS);
        ws.put('things', thing('a', 2));
        ws.put('things', thing('b'));
        ws.delete('things', 'a');
        expect(ws.get('things', 'b')).toBeDefined(); // the transaction sees its own writes
        throw new Error('boom');
      }),
    ).toThrow('boom');

    await store.sync();
    expect(things(store).get('things', 'a')).toEqual(thing('a', 1));
    expect(things(store).get('things', 'b')).toBeUndefined();
    expect(store.seq).toBe(seq);
    expect(store.journalBytes).toBe(journal);
    await store.close();
  });

  test('a nested transaction call joins the outer one', () => {
    const store = Store.memory();
    const seq = store.seq;
    store.transaction((outer) => {
      outer.scope<Things>(WS).put('things', thing('a'));
      store.transaction((inner) => {
        expect(inner).toBe(outer);
        expect(inner.scope<Things>(WS).get('things', 'a')).toBeDefined();
        inner.scope<Things>(WS).put('things', thing('b'));
      });
      things(store).transaction((scoped) => scoped.put('things', thing('c')));
      // joined, not committed on its own: the commit comes once, with the outer one
      expect(store.seq).toBe(seq);
      // and reads inside the transaction see its writes, through the store as through the tx
      expect(things(store).get('things', 'b')).toBeDefined();
      expect([...things(store).values('things')].map((t) => t.id).sort()).toEqual(['a', 'b', 'c']);
    });
    expect(store.seq).toBe(seq + 1);
    expect(things(store).count('things')).toBe(3);

    // and an outer failure discards what the inner call wrote
    expect(() =>
      store.transaction(() => {
        store.transaction((inner) => inner.scope<Things>(WS).put('things', thing('d')));
        throw new Error('outer fails');
      }),
    ).toThrow('outer fails');
    expect(things(store).get('things', 'd')).toBeUndefined();
    expect(store.seq).toBe(seq + 1);
  });

  test('transaction functions must be synchronous', async () => {
    const store = Store.memory();
    let resume: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      resume = resolve;
    });
    let late: Promise<void> | undefined;
    expect(() =>
      store.transaction((tx) => {
        late = (async () => {
          tx.scope<Things>(WS).put('things', thing('before-await'));
          await gate;
          tx.scope<Things>(WS).put('things', thing('after-await'));
        })();
        return late;
      }),
    ).toThrow('store transactions are synchronous');
    resume();
    await late;
    expect(things(store).get('things', 'before-await')).toBeUndefined();
    expect(things(store).get('things', 'after-await')).toBeUndefined();
    expect(store.seq).toBe(0);
  });
});

describe('onCommit hooks', () => {
  test('onCommit hooks see before and after images', () => {
    const store = Store.memory();
    const seen: Change[][] = [];
    store.onCommit((changes) => seen.push([...changes]));

    put(store, thing('a', 1));
    put(store, thing('a', 2));
    store.transaction((tx) => tx.scope<Things>(WS).delete('things', 'a'));
    store.transaction((tx) => tx.scope<Things>(WS).delete('things', 'never-existed'));

    expect(seen).toEqual([
      [{ scope: WS, coll: 'things', id: 'a', before: undefined, after: thing('a', 1) }],
      [{ scope: WS, coll: 'things', id: 'a', before: thing('a', 1), after: thing('a', 2) }],
      [{ scope: WS, coll: 'things', id: 'a', before: thing('a', 2), after: undefined }],
      [], // deleting what is not there changes nothing
    ]);
  });

  test('onCommit hooks may add writes in the same commit', async () => {
    const path = join(await tempDir(), 'data.json');
    const { store } = await Store.open(path);
    store.onCommit((changes, tx) => {
      for (const change of changes) {
        if (change.coll === 'things') {
          const after = change.after as Thing | undefined;
          tx.scope<Things>(change.scope).put('audit', {
            id: `audit-${change.id}`,
            created_at: '2026-01-01T00:00:00.000Z',
            of: change.id,
            n: after?.n ?? null,
          });
        }
      }
    });
    const seq = store.seq;
    put(store, thing('a', 5));
    expect(store.seq).toBe(seq + 1); // one commit, not two
    expect(things(store).get('audit', 'audit-a')).toMatchObject({ of: 'a', n: 5 });

    // a hook that throws aborts the whole commit
    store.onCommit((changes) => {
      if (changes.some((c) => c.id === 'poison')) {
        throw new Error('hook refuses');
      }
    });
    expect(() => put(store, thing('poison'))).toThrow('hook refuses');
    expect(things(store).get('things', 'poison')).toBeUndefined();
    expect(things(store).get('audit', 'audit-poison')).toBeUndefined();
    expect(store.seq).toBe(seq + 1);

    await store.close();
    const reopened = (await Store.open(path)).store;
    expect(new ScopedStore<Things>(reopened, WS).get('audit', 'audit-a')).toMatchObject({ n: 5 });
    await reopened.close();
  });
});
