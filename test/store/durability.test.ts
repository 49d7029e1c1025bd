import { existsSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { ScopedStore, Store, StoreFileError } from '../../src/store';
import { cleanup, tempDir } from '../support/spawn';
import { crashCopy, ids, openPath, put, type Things, thing, WS } from './files';

afterEach(cleanup);

describe('durability', () => {
  test('committed records survive close and reopen', async () => {
    const { path, store } = await openPath();
    put(store, thing('a', 1), thing('b', 2));
    put(store, thing('a', 3));
    store.transaction((tx) => tx.scope<Things>(WS).delete('things', 'b'));
    const seq = store.seq;
    await store.close();
    expect(existsSync(`${path}.lock`)).toBe(false);

    const { store: reopened, created } = await Store.open(path);
    expect(created).toBe(false);
    expect(ids(reopened)).toEqual(['a']);
    expect(new ScopedStore<Things>(reopened, WS).get('things', 'a')).toEqual(thing('a', 3));
    expect(reopened.seq).toBe(seq);
    await reopened.close();
  });

  test('records written after the last snapshot are replayed from the journal after a crash', async () => {
    const { path, store } = await openPath();
    put(store, thing('a'));
    await store.compact(); // snapshot holds a
    put(store, thing('b'));
    put(store, thing('c'));
    put(store, thing('a', 9));
    await store.sync();
    const seq = store.seq;
    const copy = await crashCopy(path);
    await store.close();

    const snapshot = JSON.parse(await readFile(copy, 'utf8'));
    expect(Object.keys(snapshot.workspaces[WS].things)).toEqual(['a']);
    expect((await stat(`${copy}.journal`)).size).toBeGreaterThan(0);

    const { store: replayed } = await Store.open(copy);
    expect(ids(replayed)).toEqual(['a', 'b', 'c']);
    expect(new ScopedStore<Things>(replayed, WS).get('things', 'a')).toEqual(thing('a', 9));
    expect(replayed.seq).toBe(seq);
    await replayed.close();
  });

  test('a store never compacted replays everything from the journal alone', async () => {
    const { path, store } = await openPath();
    put(store, thing('a'));
    put(store, thing('b'));
    await store.sync();
    const copy = await crashCopy(path);
    await store.close();
    expect(existsSync(copy)).toBe(false);

    const { store: replayed, created } = await Store.open(copy);
    expect(created).toBe(false);
    expect(ids(replayed)).toEqual(['a', 'b']);
    await replayed.close();
  });

  test('a torn last journal line is dropped and the rest replayed', async () => {
    const { path, store } = await openPath();
    for (const id of ['a', 'b', 'c']) {
      put(store, thing(id));
      await store.sync(); // one journal line each
    }
    const copy = await crashCopy(path);
    await store.close();
    const journal = await readFile(`${copy}.journal`, 'utf8');
    const lines = journal.split('\n');
    expect(lines).toHaveLength(4); // three lines and the final newline
    const torn = journal.slice(0, journal.length - 10); // the last append, cut short
    await writeFile(`${copy}.journal`, torn);

    const { store: replayed } = await Store.open(copy);
    expect(ids(replayed)).toEqual(['a', 'b']);
    // the torn tail was cut, so what is written next lands on a line of its own
    put(replayed, thing('d'));
    await replayed.sync();
    const again = await crashCopy(copy);
    await replayed.close();
    const { store: third } = await Store.open(again);
    expect(ids(third)).toEqual(['a', 'b', 'd']);
    await third.close();
  });

  test('a corrupt line in the middle of the journal fails open with StoreFileError naming the journal and leaves it unchanged', async () => {
    const { path, store } = await openPath();
    for (const id of ['a', 'b', 'c']) {
      put(store, thing(id, 1234));
      await store.sync();
    }
    const copy = await crashCopy(path);
    await store.close();
    const journal = await readFile(`${copy}.journal`, 'utf8');
    const lines = journal.split('\n');
    lines[1] = (lines[1] as string).replace('1234', '1235'); // valid JSON, wrong checksum
    const corrupt = Buffer.from(lines.join('\n'));
    await writeFile(`${copy}.journal`, corrupt);

    const failure = await Store.open(copy).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(StoreFileError);
    expect((failure as Error).message).toContain(`${copy}.journal`);
    expect(await readFile(`${copy}.journal`)).toEqual(corrupt);
    expect(existsSync(`${copy}.lock`)).toBe(false); // a failed open keeps no lock
  });
});

describe('the data file', () => {
  const v1 = { format: 'svc-data', version: 1, seq: 0, global: {}, workspaces: {} };
  test.each([
    ['is not JSON', '{"format":"svc-data","version":1,'],
    ['is empty', ''],
    ['is JSON but not an svc data file', '{"hello":"world"}\n'],
    ['is a JSON array', '[]'],
    ['has another format version', JSON.stringify({ ...v1, version: 2 })],
    ['lacks its records', JSON.stringify({ format: 'svc-data', version: 1, seq: 3 })],
  ])(
    'a data file that %s fails open with StoreFileError naming it and stays unchanged',
    async (_why, text) => {
      const path = join(await tempDir(), 'data.json');
      await writeFile(path, text);
      const before = await readFile(path);

      const failure = await Store.open(path).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(StoreFileError);
      expect((failure as Error).message).toContain(path);
      expect(await readFile(path)).toEqual(before);
      expect(existsSync(`${path}.lock`)).toBe(false);
    },
  );
});

describe('compaction', () => {
  test('after compact() the journal is empty and the data file holds every record and seq', async () => {
    const { path, store } = await openPath();
    put(store, thing('a', 1), thing('b', 2));
    put(store, thing('c', 3));
    store.transaction((tx) => {
      tx.scope<Things>(WS).delete('things', 'b');
      tx.scope<Things>('ws_other').put('things', thing('x', 7));
    });
    await store.sync();
    expect(store.journalBytes).toBeGreaterThan(0);

    await store.compact();
    expect(store.journalBytes).toBe(0);
    expect((await stat(`${path}.journal`)).size).toBe(0);
    const file = JSON.parse(await readFile(path, 'utf8'));
    expect(file).toMatchObject({ format: 'svc-data', version: 1, seq: store.seq });
    expect(file.workspaces).toEqual({
      [WS]: { things: { a: thing('a', 1), c: thing('c', 3) } },
      ws_other: { things: { x: thing('x', 7) } },
    });

    const copy = await crashCopy(path); // the compacted file alone, not close()'s snapshot
    await store.close();
    const { store: reopened } = await Store.open(copy);
    expect(ids(reopened)).toEqual(['a', 'c']);
    expect(new ScopedStore<Things>(reopened, 'ws_other').get('things', 'x')).toEqual(thing('x', 7));
    expect(reopened.seq).toBe(store.seq);
    await reopened.close();
  });

  test('a write acknowledged while compact() runs is not lost in a crash', async () => {
    const { path, store } = await openPath();
    put(store, thing('a'));
    await store.sync();
    const compacting = store.compact();
    // let compaction take its view of the store and start writing the snapshot
    for (let i = 0; i < 5; i++) {
      await Promise.resolve();
    }
    put(store, thing('b')); // committed while the snapshot is being written
    await store.sync(); // acknowledged
    await compacting;
    const copy = await crashCopy(path);
    await store.close();

    const { store: replayed } = await Store.open(copy);
    expect(ids(replayed)).toEqual(['a', 'b']);
    await replayed.close();
  });

  test('a write acknowledged while close() runs is on disk afterwards', async () => {
    const { path, store } = await openPath();
    put(store, thing('a'));
    await store.sync();
    const closing = store.close();
    for (let i = 0; i < 5; i++) {
      await Promise.resolve();
    }
    let acknowledged = false;
    try {
      put(store, thing('late'));
      await store.sync();
      acknowledged = true;
    } catch {
      // refusing a write once close() began is fine; acknowledging and losing it is not
    }
    await closing;
    const { store: reopened } = await Store.open(path);
    expect(ids(reopened)).toEqual(acknowledged ? ['a', 'late'] : ['a']);
    await reopened.close();
  });
});
