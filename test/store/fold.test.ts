import { readFile, rm, writeFile } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import { dumpScope, GLOBAL, type Rec, Store, StoreFileError } from '../../src/store';
import { compactFiles } from '../../src/store/compactor';
import { cleanup } from '../support/spawn';
import { openPath, withLayout } from './files';

// decisions.md, Store: compaction folds the journal into the data file by copying it span by
// span, changed records put in their place. What a reopened store holds, and in what order,
// must be exactly what the store held in memory.

afterEach(cleanup);

/** Collections of records with any fields. */
type Loose = Record<string, Rec & Record<string, unknown>>;

const SCOPES = [GLOBAL, 'ws_a', 'ws_b', 'ws_c'];
const COLLS = ['alpha', 'beta', 'gamma'];

/** A seeded generator (mulberry32), so a failure repeats. */
function draws(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
}

const pick = <T>(list: readonly T[], draw: (n: number) => number) => list[draw(list.length)] as T;

/** Each scope's collections, records in the order memory holds them (what a file read gives). */
function contents(store: Store): Record<string, Record<string, Rec[]>> {
  const out: Record<string, Record<string, Rec[]>> = {};
  for (const scope of SCOPES) {
    const dump = dumpScope(store, scope);
    const sorted: Record<string, Rec[]> = {};
    for (const name of Object.keys(dump).sort()) {
      sorted[name] = dump[name] as Rec[];
    }
    out[scope] = sorted;
  }
  return out;
}

async function randomHistory(seed: number, compactions: number) {
  const { path, store } = await openPath();
  const draw = draws(seed);
  for (let round = 0; round <= compactions; round++) {
    for (let t = 0; t < 60; t++) {
      store.transaction((tx) => {
        for (let k = 0, n = 1 + draw(4); k < n; k++) {
          const scope = tx.scope<Loose>(pick(SCOPES, draw));
          const coll = pick(COLLS, draw);
          const id = `r${draw(25)}${draw(3) === 0 ? ' "ü\\\\' : ''}`;
          if (draw(4) === 0) {
            scope.delete(coll, id);
          } else {
            scope.put(coll, { id, round, t, text: 'é😀'.repeat(draw(3)) });
          }
        }
      });
    }
    if (round < compactions) {
      await store.compact();
    }
  }
  await store.sync();
  return { path, store };
}

describe('folding the journal into the data file', () => {
  test.each([1, 2, 3, 4, 5, 6])(
    'a reopened store holds what memory held, records in the same order (history %i)',
    async (seed) => {
      const { path, store } = await randomHistory(seed, 4);
      const expected = contents(store);
      expect(store.seq).toBeGreaterThan(250);
      await store.close();
      const { store: reopened } = await Store.open(path);
      expect(reopened.unparsed).toBeGreaterThan(0); // the file is lazily readable: its layout is sound
      expect(contents(reopened)).toEqual(expected);
      await reopened.close();
    },
  );

  test('a record deleted and put again goes after the others, as in memory', async () => {
    const { path, store } = await openPath();
    const put = (id: string, v: number) =>
      store.transaction((tx) => tx.scope<Loose>('ws_a').put('alpha', { id, v }));
    put('a', 1);
    put('b', 1);
    put('c', 1);
    await store.compact();
    store.transaction((tx) => tx.scope<Loose>('ws_a').delete('alpha', 'a'));
    put('a', 2);
    put('b', 2);
    await store.close();
    const file = JSON.parse(await readFile(path, 'utf8'));
    expect(Object.keys(file.workspaces.ws_a.alpha)).toEqual(['b', 'c', 'a']);
    expect(file.workspaces.ws_a.alpha.b).toEqual({ id: 'b', v: 2 });
  });

  test('a collection of many MB, lines cut by its reads, is copied from its layout, every record in its place', async () => {
    const { path, store } = await openPath();
    // Lines of different lengths, so the 4 MB reads cut them at different places.
    const text = (i: number, v: number) =>
      `${'é'.repeat(i % 7)}${'x'.repeat(2_900 + (i % 13))}${v}`;
    store.transaction((tx) => {
      for (let i = 0; i < 4_000; i++) {
        tx.scope<Loose>('ws_a').put('alpha', { id: `r${i}`, text: text(i, 0) });
      }
      tx.scope<Loose>('ws_a').put('beta', { id: 'b', v: 0 });
    });
    await store.compact();
    expect((await readFile(path)).length).toBeGreaterThan(2 * 4 * 1024 * 1024); // 4 MB reads
    // Changed in place, deleted, deleted and put again, and new: a journal line of 6 MB, read in
    // 1 MB pieces (under the 8 MB at which the store would set the journal aside itself).
    store.transaction((tx) => tx.scope<Loose>('ws_a').delete('alpha', 'r1'));
    store.transaction((tx) => {
      const alpha = tx.scope<Loose>('ws_a');
      for (let i = 0; i < 4_000; i++) {
        if (i % 97 === 0) {
          alpha.put('alpha', { id: `r${i}`, text: text(i, 1) });
        } else if (i % 101 === 0) {
          alpha.delete('alpha', `r${i}`);
        }
      }
      alpha.put('alpha', { id: 'r1', text: 'again' });
      alpha.put('alpha', { id: 'new', text: 'x'.repeat(6_000_000) });
    });
    await store.sync();
    const expected = contents(store);
    // The same files folded by the worker, as a compaction of the store would.
    const copy = `${path}.copy`;
    await writeFile(copy, await readFile(path));
    await writeFile(`${copy}.journal.prev`, await readFile(`${path}.journal`));
    await store.close();
    const folded = await compactFiles({
      dataPath: copy,
      journals: [`${copy}.journal.prev`],
      paced: false,
      trusted: true,
    }).done;
    expect(folded.whole).toBe(false); // no line was found cut: the file's layout served
    await rm(`${copy}.journal.prev`);
    const { store: reopened } = await Store.open(copy);
    // Read in 8 MB pieces, summed as they came in: the checksum held, the workspace left unparsed.
    expect(reopened.unparsed).toBe(1);
    expect(contents(reopened)).toEqual(expected);
    const ids = dumpScope(reopened, 'ws_a').alpha?.map((r) => r.id) ?? [];
    expect(ids.slice(0, 3)).toEqual(['r0', 'r2', 'r3']);
    expect(ids.slice(-2)).toEqual(['r1', 'new']);
    expect(ids).toHaveLength(4_000 - 39 + 1);
    await reopened.close();
  });

  test('a collection whose records were all deleted is left out, as memory leaves it out', async () => {
    const { path, store } = await openPath();
    store.transaction((tx) => tx.scope<Loose>('ws_a').put('alpha', { id: 'a' }));
    store.transaction((tx) => tx.scope<Loose>('ws_a').put('beta', { id: 'b' }));
    await store.compact();
    store.transaction((tx) => tx.scope<Loose>('ws_a').delete('alpha', 'a'));
    await store.close();
    const file = JSON.parse(await readFile(path, 'utf8'));
    expect(file.workspaces.ws_a).toEqual({ beta: { b: { id: 'b' } } });
  });

  test('a file written before collections were in its layout is folded whole, and gets them', async () => {
    const { path, store } = await randomHistory(7, 1);
    const expected = contents(store);
    await store.close();
    await writeFile(
      path,
      withLayout(await readFile(path, 'utf8'), (layout) => {
        delete layout.collections;
        delete layout.global;
      }),
    );
    const { store: reopened } = await Store.open(path);
    reopened.transaction((tx) => tx.scope<Loose>('ws_b').put('beta', { id: 'new' }));
    const after = contents(reopened);
    await reopened.close();
    expect(JSON.parse(await readFile(path, 'utf8')).layout.collections).toBeDefined();
    const { store: again } = await Store.open(path);
    expect(contents(again)).toEqual(after);
    expect(after.ws_a).toEqual(expected.ws_a);
    await again.close();
  });

  test('a file whose layout does not match its text (edited, checksum redone) is folded whole', async () => {
    const { path, store } = await randomHistory(8, 1);
    await store.close();
    // Spans now point one byte off: the copy finds no record where the layout says.
    await writeFile(
      path,
      withLayout(await readFile(path, 'utf8'), (layout) => {
        const colls = layout.collections as Record<string, Record<string, [number, number]>>;
        for (const spans of Object.values(colls)) {
          for (const span of Object.values(spans)) {
            span[0] += 1;
          }
        }
      }),
    );
    const { store: reopened } = await Store.open(path);
    reopened.transaction((tx) => {
      for (const scope of SCOPES) {
        tx.scope<Loose>(scope).put('alpha', { id: 'touch' });
      }
    });
    const expected = contents(reopened);
    await reopened.close();
    const { store: again } = await Store.open(path);
    expect(contents(again)).toEqual(expected);
    await again.close();
  });

  test('a file edited by hand (checksum left as it was) is folded whole, the edit kept', async () => {
    const { path, store } = await openPath();
    store.transaction((tx) => {
      tx.scope<Loose>('ws_a').put('alpha', { id: 'a1', v: 'as written' });
      tx.scope<Loose>('ws_a').put('beta', { id: 'b1', v: 'as written' });
    });
    await store.close();
    // The last collection's record made longer: every span after it is off, the checksum too.
    const text = await readFile(path, 'utf8');
    const edited = text.replace(
      '"b1":{"id":"b1","v":"as written"}',
      '"b1":{"id":"b1","v":"edited by hand, longer"}',
    );
    expect(edited).not.toBe(text);
    await writeFile(path, edited);
    const { store: reopened } = await Store.open(path);
    expect(reopened.unparsed).toBe(0); // parsed whole at start: its checksum fails
    reopened.transaction((tx) => tx.scope<Loose>('ws_a').put('alpha', { id: 'a2' })); // beta untouched
    await reopened.close();
    const file = JSON.parse(await readFile(path, 'utf8'));
    expect(file.workspaces.ws_a.beta).toEqual({ b1: { id: 'b1', v: 'edited by hand, longer' } });
    expect(Object.keys(file.workspaces.ws_a.alpha)).toEqual(['a1', 'a2']);
    const { store: again } = await Store.open(path);
    expect(again.unparsed).toBe(1); // written by svc again: its layout and checksum hold
    expect(again.read('ws_a', 'beta', 'b1')).toEqual({ id: 'b1', v: 'edited by hand, longer' });
    await again.close();
  });

  test('a restart replays the journal without parsing the workspaces it touched', async () => {
    const { path, store } = await randomHistory(9, 1);
    const expected = contents(store);
    await store.close();
    const { store: opened } = await Store.open(path);
    opened.transaction((tx) => {
      tx.scope<Loose>('ws_c').put('gamma', { id: 'late' });
    });
    await opened.sync();
    const copy = `${path}.crash.json`;
    await writeFile(copy, await readFile(path));
    await writeFile(`${copy}.journal`, await readFile(`${path}.journal`));
    await opened.close();
    const { store: replayed } = await Store.open(copy);
    expect(replayed.unparsed).toBe(3); // ws_c is waiting, its journal's write held for it
    expect(replayed.read('ws_c', 'gamma', 'late')).toEqual({ id: 'late' });
    expect(contents(replayed)).toEqual({
      ...expected,
      ws_c: { ...expected.ws_c, gamma: [...(expected.ws_c?.gamma ?? []), { id: 'late' }] },
    });
    await replayed.close();
  });
});

describe('the compaction worker', () => {
  test('a journal found corrupt while folding comes back as the store file error it is', async () => {
    const { path, store } = await openPath();
    store.transaction((tx) => tx.scope<Loose>('ws_a').put('alpha', { id: 'a' }));
    await store.close();
    await writeFile(`${path}.journal.prev`, 'not a journal line\n{"also":"not"}\n');
    await expect(
      compactFiles({ dataPath: path, journals: [`${path}.journal.prev`], paced: false }).done,
    ).rejects.toThrow(StoreFileError);
    const { store: reopened } = await Store.open(path).catch((err: Error) => ({ store: err }));
    expect(reopened).toBeInstanceOf(StoreFileError); // a start refuses it too
  });
});

describe('a journal set aside, folded by the worker', () => {
  test('a torn last line is left out and every whole line before it, over many read chunks, is folded in', async () => {
    const { path, store } = await openPath();
    const big = 'x'.repeat(20_000); // a journal of several MB: lines cut by its 1 MB reads
    for (let i = 0; i < 200; i++) {
      store.transaction((tx) => tx.scope<Loose>('ws_a').put('alpha', { id: `r${i}`, big }));
      await store.sync(); // a journal line each
    }
    const journal = await readFile(`${path}.journal`, 'utf8');
    expect(Buffer.byteLength(journal)).toBeGreaterThan(3 * 1024 * 1024);
    await store.close(); // folds the journal: the data file holds the 200
    const torn = journal.slice(0, -100); // the last line, 20 KB long, cut short
    // The same writes, on no data file: only the torn last one is missing.
    await rm(path);
    await writeFile(`${path}.journal.prev`, torn);
    await compactFiles({ dataPath: path, journals: [`${path}.journal.prev`], paced: false }).done;
    const { store: reopened } = await Store.open(path);
    const ids = dumpScope(reopened, 'ws_a').alpha?.map((r) => r.id) ?? [];
    expect(ids).toHaveLength(199);
    expect(ids.at(-1)).toBe('r198');
    await reopened.close();
  });
});

describe('records read back from the journals as they are written', () => {
  test('a record over the read window, multi-byte text, changed in place and added, over two journals', async () => {
    const { path, store } = await openPath();
    const put = (id: string, text: string) =>
      store.transaction((tx) => tx.scope<Loose>('ws_a').put('alpha', { id, text }));
    for (let i = 0; i < 50; i++) {
      put(`old${i}`, 'é'.repeat(i));
    }
    await store.compact(); // the fifty are in the data file: changing them puts them in place
    const base = await readFile(path);
    const huge = 'ü😀'.repeat(300_000); // 1.8 MB of UTF-8: more than a read window
    put('old40', 'changed 🏠');
    put('new1', huge);
    put('old3', huge);
    await store.sync();
    const first = `${path}.first`;
    await writeFile(first, await readFile(`${path}.journal`));
    for (let i = 0; i < 3000; i++) {
      put(`new${i + 2}`, `ñ${i}`.repeat(50)); // several MB: the window moves on
    }
    put('old7', 'later');
    const expected = contents(store);
    await store.sync();
    const second = `${path}.second`;
    await writeFile(second, await readFile(`${path}.journal`));
    await store.close();
    // The data file as the first compaction left it, both journals folded into it: the second
    // repeats the first's lines, so reading from both must agree.
    await writeFile(path, base);
    await compactFiles({ dataPath: path, journals: [first, second], paced: false }).done;
    const { store: reopened } = await Store.open(path);
    expect(contents(reopened)).toEqual(expected);
    expect(reopened.read('ws_a', 'alpha', 'new1')).toEqual({ id: 'new1', text: huge });
    await reopened.close();
  });
});

describe('journal lines', () => {
  test('a line of an earlier svc, records inline, is replayed at start and folded in', async () => {
    const { path, store } = await openPath();
    store.transaction((tx) => tx.scope<Loose>('ws_a').put('alpha', { id: 'a' }));
    await store.close();
    const seq = JSON.parse(await readFile(path, 'utf8')).seq as number;
    const json = JSON.stringify({
      s: seq + 1,
      t: [[['ws_a', 'alpha', 'inline', { id: 'inline', v: 1 }]]],
    });
    await writeFile(`${path}.journal`, `${crc32(json).toString(16).padStart(8, '0')} ${json}\n`);
    const { store: reopened } = await Store.open(path);
    expect(reopened.read('ws_a', 'alpha', 'inline')).toEqual({ id: 'inline', v: 1 });
    await reopened.close();
    const file = JSON.parse(await readFile(path, 'utf8'));
    expect(file.workspaces.ws_a.alpha).toEqual({ a: { id: 'a' }, inline: { id: 'inline', v: 1 } });
  });

  test('a line holds each record apart, after a tab, as the JSON the write made', async () => {
    const { path, store } = await openPath();
    store.transaction((tx) => tx.scope<Loose>('ws_a').put('alpha', { id: 'gone' }));
    await store.sync();
    store.transaction((tx) => {
      tx.scope<Loose>('ws_a').put('alpha', { id: 'x', text: 'tab\there, "quoted"' });
      tx.scope<Loose>('ws_a').delete('alpha', 'gone');
    });
    await store.sync();
    const line = (await readFile(`${path}.journal`, 'utf8')).trimEnd().split('\n').at(-1) ?? '';
    const [head, ...records] = line.slice(9).split('\t');
    expect(JSON.parse(head ?? '')).toEqual({
      s: 2,
      t: [
        [
          ['ws_a', 'alpha', 'x', 0],
          ['ws_a', 'alpha', 'gone'],
        ],
      ],
    });
    expect(records.map((text) => JSON.parse(text))).toEqual([
      { id: 'x', text: 'tab\there, "quoted"' },
    ]);
    await store.close();
  });
});
