import { existsSync, watch } from 'node:fs';
import { appendFile, copyFile, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { Store } from '../../src/store';
import { cleanup } from '../support/spawn';
import { crashCopy, ids, openPath, put, thing, WS } from './files';

afterEach(cleanup);

const pad = 'p'.repeat(2000);

/** Waits until the journal has stopped growing (writes a failed store still takes). */
async function settled(store: Store): Promise<void> {
  let last = -1;
  while (store.journalBytes !== last) {
    last = store.journalBytes;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A store big enough that writing its snapshot takes a while. */
async function bigStore() {
  const opened = await openPath();
  for (let batch = 0; batch < 10; batch++) {
    put(
      opened.store,
      ...Array.from({ length: 1000 }, (_, i) => thing(`big-${batch}-${i}`, i, pad)),
    );
  }
  await opened.store.sync();
  return opened;
}

/**
 * A big store folded once, then every record changed: the next fold must write each anew (20
 * MB), which takes a while.
 */
async function bigStoreAllChanged() {
  const opened = await bigStore();
  await opened.store.compact();
  put(
    opened.store,
    ...Array.from({ length: 10_000 }, (_, i) =>
      thing(`big-${Math.floor(i / 1000)}-${i % 1000}`, -i, pad),
    ),
  );
  await opened.store.sync();
  return opened;
}

describe('compaction', () => {
  test('writes are acknowledged while a snapshot is being written, not held up by it', async () => {
    const { path, store } = await bigStoreAllChanged();
    let compactedAt = 0;
    const compacting = store.compact().then(() => {
      compactedAt = performance.now();
    });
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    put(store, thing('during'));
    await store.sync();
    const syncedAt = performance.now();
    const copy = await crashCopy(path); // a crash now: the snapshot may not be on disk yet
    await compacting;
    expect(syncedAt).toBeLessThan(compactedAt);
    await store.close();
    const { store: replayed } = await Store.open(copy);
    expect(ids(replayed)).toContain('during');
    expect(ids(replayed)).toHaveLength(10_001);
    await replayed.close();
    expect(existsSync(`${copy}.journal.prev`)).toBe(false);
  });

  test('a shutdown while a fold is under way stops it and folds both journals in one pass', async () => {
    const { path, store } = await bigStoreAllChanged(); // stopped well before the fold's end
    // Each fold that finishes renames its new file onto the data file's name.
    const renames: string[] = [];
    const watcher = watch(dirname(path), (event, name) => {
      if (name === basename(path)) {
        renames.push(event);
      }
    });
    const compacting = store.compact(); // sets the journal aside and starts folding it
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    put(store, thing('after')); // into the fresh journal
    await store.sync();
    await store.close();
    await compacting; // the one fold at shutdown answers the compaction asked for before it
    await new Promise((resolve) => setTimeout(resolve, 100)); // the watcher's events come in
    watcher.close();
    expect(renames).toEqual(['rename']);
    expect(existsSync(`${path}.journal.prev`)).toBe(false);
    expect((await stat(`${path}.journal`)).size).toBe(0);
    const { store: reopened } = await Store.open(path);
    expect(ids(reopened)).toHaveLength(10_001);
    expect(reopened.read(WS, 'things', 'big-9-999')).toMatchObject({ n: -9999 });
    expect(reopened.read(WS, 'things', 'after')).toMatchObject({ n: 1 });
    await reopened.close();
  });

  test('a crash after the journal was set aside and before the snapshot replays both journals', async () => {
    const { path, store } = await openPath();
    put(store, thing('a'));
    await store.compact();
    put(store, thing('b'));
    await store.sync();
    // as compaction leaves the files once it has set the journal aside
    await rename(`${path}.journal`, `${path}.journal.prev`);
    await copyFile(`${path}.journal.prev`, `${path}.journal`);
    const copy = await crashCopy(path);
    await store.close();
    const { store: replayed } = await Store.open(copy);
    expect(ids(replayed)).toEqual(['a', 'b']);
    await replayed.close(); // the journal set aside is folded in beside, not before serving
    expect(existsSync(`${copy}.journal.prev`)).toBe(false);
    const { store: again } = await Store.open(copy);
    expect(ids(again)).toEqual(['a', 'b']);
    await again.close();
  });

  test('a crash after the snapshot and before the old journal is deleted loses and repeats nothing', async () => {
    const { path, store } = await openPath();
    put(store, thing('a', 1));
    await store.sync();
    const aside = await crashCopy(path); // journal holding a=1
    put(store, thing('a', 2), thing('b'));
    await store.compact(); // snapshot: a=2, b
    const copy = await crashCopy(path);
    await copyFile(`${aside}.journal`, `${copy}.journal.prev`); // the stale journal left behind
    await store.close();
    const { store: replayed } = await Store.open(copy);
    expect(ids(replayed)).toEqual(['a', 'b']);
    expect(replayed.read('ws_durable', 'things', 'a')).toMatchObject({ n: 2 });
    await replayed.close();
  });

  test('the journal is set aside and compacted by itself once it outgrows the snapshot', async () => {
    const { store } = await openPath();
    const big = 'q'.repeat(64 * 1024);
    for (let i = 0; i < 140; i++) {
      put(store, thing(`grow-${i}`, i, big));
      await store.sync();
    }
    expect(store.journalBytes).toBeLessThan(8 * 1024 * 1024);
    await store.close();
  });

  test('closing a store that wrote nothing since its snapshot leaves the data file alone', async () => {
    const { path, store } = await openPath();
    put(store, thing('a'));
    await store.close();
    const before = await stat(path);
    const { store: reopened } = await Store.open(path);
    await reopened.close();
    const after = await stat(path);
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
  });
  test('a fold that fails is told to whoever asked for it: compact and close reject, never hang', async () => {
    const { path, store } = await openPath();
    put(store, thing('a'));
    await store.sync();
    await appendFile(`${path}.journal`, 'not a journal line\n'); // damaged behind svc's back
    put(store, thing('b'));
    await store.sync();
    await expect(store.compact()).rejects.toThrow(/journal.prev is corrupt at byte/);
    await expect(store.close()).rejects.toThrow(/journal.prev is corrupt at byte/);
  });
  test('after a fold failed, the journal is never set aside again over the one it left', async () => {
    const { path, store } = await openPath();
    put(store, thing('before'));
    await store.sync();
    // The fold cannot write its temporary file: it fails, leaving the journal set aside.
    await mkdir(join(dirname(path), '.data.json.tmp'));
    await expect(store.compact()).rejects.toThrow(/failed/);
    // Writes the journal still takes, past the size that would set it aside.
    for (let i = 0; i < 5; i++) {
      put(store, ...Array.from({ length: 1000 }, (_, k) => thing(`after-${i}-${k}`, k, pad)));
      await store.sync(); // still acknowledged: the journal takes them
      await settled(store);
    }
    expect(existsSync(`${path}.journal.prev`)).toBe(true);
    const copy = await crashCopy(path);
    await expect(store.close()).rejects.toThrow(/failed/); // its fold fails again
    const { store: reopened } = await Store.open(copy);
    expect(ids(reopened)).toContain('before');
    expect(ids(reopened)).toHaveLength(5001);
    await reopened.close();
  });

  test('a fold that failed is folded again once it can be, and nothing is lost', async () => {
    const { path, store } = await openPath();
    put(store, thing('before'));
    await store.sync();
    const blocker = join(dirname(path), '.data.json.tmp');
    await mkdir(blocker);
    await expect(store.compact()).rejects.toThrow(/failed/);
    put(store, thing('during'));
    await store.sync();
    await rm(blocker, { recursive: true });
    await store.compact(); // the journal left first, then the one written since
    expect(existsSync(`${path}.journal.prev`)).toBe(false);
    put(store, thing('after'));
    await store.close();
    const file = JSON.parse(await readFile(path, 'utf8'));
    expect(Object.keys(file.workspaces[WS].things).sort()).toEqual(['after', 'before', 'during']);
    const { store: reopened } = await Store.open(path);
    expect(ids(reopened)).toEqual(['after', 'before', 'during']);
    await reopened.close();
  });
});
