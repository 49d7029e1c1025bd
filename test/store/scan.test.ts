import { describe, expect, test } from 'vitest';
import { type Position, type Rec, ScopedStore, Store } from '../../src/store';

type Thing = Rec & { created_at: string; n: number };
interface Things {
  things: Thing;
}

const WS = 'ws_scan';
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
const thing = (id: string, minute: number, n = 0): Thing => ({ id, created_at: at(minute), n });

function storeWith(recs: Thing[]): { store: Store; things: ScopedStore<Things> } {
  const store = Store.memory();
  const things = new ScopedStore<Things>(store, WS);
  add(things, recs);
  return { store, things };
}
const add = (things: ScopedStore<Things>, recs: Thing[]) =>
  things.transaction((tx) => {
    for (const rec of recs) {
      tx.put('things', rec);
    }
  });
const pos = (rec: Thing): Position => ({ created_at: rec.created_at, id: rec.id });
const idsOf = (recs: readonly Thing[]) => recs.map((r) => r.id);

describe('scan', () => {
  test('scan lists newest first by created_at, then by id', () => {
    const { things } = storeWith([
      thing('m', 1),
      thing('b', 3),
      thing('z', 2),
      thing('a', 3),
      thing('c', 3),
      thing('y', 0),
    ]);
    const { items, hasMore } = things.scan('things', { limit: 50 });
    expect(idsOf(items)).toEqual(['c', 'b', 'a', 'z', 'm', 'y']);
    expect(hasMore).toBe(false);
  });

  test('scan after a position continues strictly after it', () => {
    const recs = [thing('a', 1), thing('b', 2), thing('c', 2), thing('d', 3)];
    const { things } = storeWith(recs);
    expect(idsOf(things.scan('things', { limit: 50, after: pos(thing('c', 2)) }).items)).toEqual([
      'b',
      'a',
    ]);
    expect(idsOf(things.scan('things', { limit: 50, after: pos(thing('d', 3)) }).items)).toEqual([
      'c',
      'b',
      'a',
    ]);
    // a position whose record is gone still marks a place in the order
    things.transaction((tx) => tx.delete('things', 'c'));
    expect(idsOf(things.scan('things', { limit: 50, after: pos(thing('c', 2)) }).items)).toEqual([
      'b',
      'a',
    ]);
    expect(things.scan('things', { limit: 50, after: pos(thing('a', 1)) })).toEqual({
      items: [],
      hasMore: false,
    });
  });

  test('limit caps a page and hasMore says whether a further match exists', () => {
    const { things } = storeWith([thing('a', 1, 1), thing('b', 2, 2), thing('c', 3, 1)]);
    expect(things.scan('things', { limit: 2 })).toMatchObject({ hasMore: true });
    expect(things.scan('things', { limit: 2 }).items).toHaveLength(2);
    expect(things.scan('things', { limit: 3 })).toMatchObject({ hasMore: false });
    const odd = (r: Thing) => r.n === 1;
    expect(things.scan('things', { limit: 1, where: odd })).toEqual({
      items: [thing('c', 3, 1)],
      hasMore: true,
    });
    // b follows a but does not match: no further match, so no more
    expect(things.scan('things', { limit: 2, where: odd })).toEqual({
      items: [thing('c', 3, 1), thing('a', 1, 1)],
      hasMore: false,
    });
    expect(things.scan('things', { limit: 1, where: odd, after: pos(thing('c', 3)) }).hasMore).toBe(
      false,
    );
  });

  test('records added while paging land before the cursor, so paging never skips or repeats', () => {
    const original = Array.from({ length: 10 }, (_, i) => thing(`r${i}`, 10 + (i % 4)));
    const { things } = storeWith(original);
    const seen: string[] = [];
    let after: Position | undefined;
    let page = 0;
    for (;;) {
      const { items, hasMore } = things.scan('things', { limit: 3, after });
      seen.push(...idsOf(items));
      const last = items.at(-1);
      if (!hasMore || last === undefined) {
        break;
      }
      after = pos(last);
      page += 1;
      // new records arrive between pages: newer ones, and one tied with the cursor's
      // created_at whose id sorts just above the cursor's, i.e. just before it newest first
      add(things, [thing(`new${page}`, 20 + page), { ...last, id: `${last.id}~` }]);
      // an update that keeps created_at does not move its record
      add(things, [{ ...(things.get('things', 'r0') as Thing), n: page }]);
    }
    const expected = idsOf(
      [...original].sort((x, y) => (`${y.created_at}${y.id}` < `${x.created_at}${x.id}` ? -1 : 1)),
    );
    expect(page).toBeGreaterThan(2);
    expect(seen).toEqual(expected);
    // and the records added meanwhile are indexed: a fresh scan starts with them
    const fresh = things.scan('things', { limit: 100 }).items;
    expect(fresh).toHaveLength(original.length + 2 * page);
    expect(idsOf(fresh.slice(0, page))).toEqual(
      Array.from({ length: page }, (_, i) => `new${page - i}`),
    );
  });

  test('a record whose created_at changes moves to its new place in the order', () => {
    const { things } = storeWith([thing('a', 1), thing('b', 2), thing('c', 3)]);
    expect(idsOf(things.scan('things', { limit: 5 }).items)).toEqual(['c', 'b', 'a']);
    add(things, [thing('a', 9)]);
    expect(idsOf(things.scan('things', { limit: 5 }).items)).toEqual(['a', 'c', 'b']);
  });

  test('scan of a collection or scope never written is an empty page', () => {
    const { store } = storeWith([thing('a', 1)]);
    expect(new ScopedStore<Things>(store, 'ws_elsewhere').scan('things', { limit: 5 })).toEqual({
      items: [],
      hasMore: false,
    });
  });
});

// issue 35: a scan `on` a field (a job's payments, notes, ...) reads an index kept with every
// change, and answers exactly what a scan of the whole collection filtered by the field does.
describe('scan on a field', () => {
  type Owned = Rec & { created_at: string; job_id: string | null };
  interface Owns {
    owned: Owned;
  }
  const owned = (id: string, minute: number, job: string | null): Owned => ({
    id,
    created_at: at(minute),
    job_id: job,
  });

  function both(things: ScopedStore<Owns>, job: string, after?: Position) {
    const indexed = things.scan('owned', { limit: 50, after, on: { field: 'job_id', value: job } });
    const whole = things.scan('owned', { limit: 50, after, where: (r) => r.job_id === job });
    return [idsOf(indexed.items as never), idsOf(whole.items as never)];
  }

  test('answers what a filtered scan answers, through creates, moves, deletes and new times', () => {
    const store = Store.memory();
    const things = new ScopedStore<Owns>(store, WS);
    const put = (recs: Owned[]) =>
      things.transaction((tx) => {
        for (const rec of recs) {
          tx.put('owned', rec);
        }
      });
    put([owned('a', 1, 'j1'), owned('b', 2, 'j2'), owned('c', 3, 'j1'), owned('d', 4, null)]);
    const [first] = both(things, 'j1'); // builds the index
    expect(first).toEqual(['c', 'a']);
    put([owned('e', 5, 'j1'), owned('b', 2, 'j1'), owned('c', 0, 'j1'), owned('d', 4, 'j2')]);
    things.transaction((tx) => tx.delete('owned', 'a'));
    for (const job of ['j1', 'j2', 'j3']) {
      const [indexed, whole] = both(things, job);
      expect(indexed, job).toEqual(whole);
    }
    expect(both(things, 'j1')[0]).toEqual(['e', 'b', 'c']);
    expect(both(things, 'j2')[0]).toEqual(['d']);
    const [after] = both(things, 'j1', { created_at: at(5), id: 'e' });
    expect(after).toEqual(['b', 'c']);
  });
});
