import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { GLOBAL, ScopedStore, Store } from '../../src/store';
import { cleanup } from '../support/spawn';
import { crashCopy, openPath, type Things, thing } from './files';

// Issue 37: a workspace deleted for good is its scope dropped whole, in one journalled op that
// never reads its records. Nothing of it is left in memory, in the data file (body and layout) or
// after a restart, whether the store was closed or the process died right after the commit.

afterEach(cleanup);

const scoped = (store: Store, ws: string) => new ScopedStore<Things>(store, ws);
const records = (store: Store, ws: string) => [...scoped(store, ws).values('things')];

function fill(store: Store, ...workspaces: string[]): void {
  for (const ws of workspaces) {
    store.transaction((tx) => {
      for (let n = 1; n <= 3; n++) {
        tx.scope<Things>(ws).put('things', thing(`${ws}-${n}`, n));
      }
    });
  }
}

const drop = (store: Store, ws: string) => store.transaction((tx) => tx.drop(ws));

describe('a dropped workspace scope', () => {
  test('is gone from memory at once; the other workspaces keep every record', () => {
    const store = Store.memory();
    fill(store, 'ws_a', 'ws_b');
    drop(store, 'ws_a');
    expect(store.scopes()).toEqual(['ws_b']);
    expect(records(store, 'ws_a')).toEqual([]);
    expect(records(store, 'ws_b').map((r) => r.id)).toEqual(['ws_b-1', 'ws_b-2', 'ws_b-3']);
  });

  test('takes no later write: the transaction is refused whole and changes nothing', () => {
    const store = Store.memory();
    fill(store, 'ws_a', 'ws_b');
    drop(store, 'ws_a');
    const seq = store.seq;
    expect(() =>
      store.transaction((tx) => {
        tx.scope<Things>('ws_b').put('things', thing('ws_b-4', 4));
        tx.scope<Things>('ws_a').put('things', thing('ws_a-9', 9));
      }),
    ).toThrow(/ws_a is deleted/);
    expect(store.seq).toBe(seq);
    expect(records(store, 'ws_b')).toHaveLength(3);
    expect(records(store, 'ws_a')).toEqual([]);
  });

  test('reads as nothing inside the transaction that drops it, and refuses its writes there', () => {
    const store = Store.memory();
    fill(store, 'ws_a');
    store.transaction((tx) => {
      expect(tx.scope<Things>('ws_a').all('things')).toHaveLength(3);
      tx.drop('ws_a');
      expect(tx.scope<Things>('ws_a').all('things')).toEqual([]);
      expect(tx.scope<Things>('ws_a').get('things', 'ws_a-1')).toBeUndefined();
      expect(() => tx.scope<Things>('ws_a').put('things', thing('x'))).toThrow(/dropped/);
      expect([...tx.dropped]).toEqual(['ws_a']);
    });
  });

  test('the global scope is never dropped', () => {
    const store = Store.memory();
    expect(() => store.transaction((tx) => tx.drop(GLOBAL))).toThrow(/never dropped/);
  });

  test('a clean stop folds it out: the data file names neither it nor its records', async () => {
    const { path, store } = await openPath();
    fill(store, 'ws_a', 'ws_b');
    await store.close();
    const { store: again } = await Store.open(path);
    drop(again, 'ws_a');
    await again.close();
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain('ws_a');
    expect(Object.keys(JSON.parse(text).layout.workspaces)).toEqual(['ws_b']);
    const { store: third } = await Store.open(path);
    expect(third.scopes()).toEqual(['ws_b']);
    expect(records(third, 'ws_b')).toHaveLength(3);
    await third.close();
  });

  test('a crash right after the commit: the journal drops it on the next start, unparsed', async () => {
    const { path, store } = await openPath();
    fill(store, 'ws_a', 'ws_b');
    await store.close();
    const { store: again } = await Store.open(path);
    expect(again.unparsed).toBe(2);
    drop(again, 'ws_a');
    await again.sync();
    const copy = await crashCopy(path);
    await again.close();
    const { store: restarted } = await Store.open(copy);
    // Dropped without being parsed: only the other workspace waits to be.
    expect(restarted.unparsed).toBe(1);
    expect(restarted.scopes()).toEqual(['ws_b']);
    expect(records(restarted, 'ws_a')).toEqual([]);
    expect(records(restarted, 'ws_b')).toHaveLength(3);
    await restarted.close();
    expect(await readFile(copy, 'utf8')).not.toContain('ws_a');
  });

  test('writes before the drop in the same journal are replayed and dropped with it', async () => {
    const { path, store } = await openPath();
    fill(store, 'ws_a', 'ws_b');
    drop(store, 'ws_a');
    await store.sync();
    const copy = await crashCopy(path);
    await store.close();
    const { store: restarted } = await Store.open(copy);
    expect(restarted.scopes()).toEqual(['ws_b']);
    expect(records(restarted, 'ws_a')).toEqual([]);
    await restarted.close();
    const text = await readFile(copy, 'utf8');
    expect(text).not.toContain('ws_a');
    expect(JSON.parse(text).workspaces.ws_b.things['ws_b-2'].n).toBe(2);
  });
});
