import { statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { dumpScope, type Rec, Store, StoreFileError } from '../../src/store';
import { cleanup } from '../support/spawn';
import { openPath } from './files';

// decisions.md, Store: a svc that was killed leaves in its lock what the data file was when it
// last wrote or checked it; a start that finds the file still so reads only its head and layout
// (each workspace when it is parsed), and any other file is read through for its checksum.

afterEach(cleanup);

/** Collections of records with any fields. */
type Loose = Record<string, Rec & Record<string, unknown>>;

/** A store that folded a file, wrote on into its journal, and was never closed: as if killed. */
async function killed() {
  const { path, store } = await openPath();
  store.transaction((tx) => {
    tx.scope<Loose>('ws_a').put('alpha', { id: 'a1', v: 'as written' });
    tx.scope<Loose>('ws_b').put('alpha', { id: 'b1', v: 'as written' });
  });
  await store.compact(); // the fold notes the file it wrote in the lock
  store.transaction((tx) => tx.scope<Loose>('ws_a').put('alpha', { id: 'a2', v: 'journal' }));
  await store.sync();
  return path;
}

/** The file with a record's text changed by hand, its length and checksum as they were. */
async function editByHand(path: string): Promise<void> {
  const text = await readFile(path, 'utf8');
  const edited = text.replace('"b1","v":"as written"', '"b1","v":"AS WRITTEN"');
  expect(edited).not.toBe(text);
  await writeFile(path, edited);
}

/** The lock's note after the pid, made to say the file is what it is now. */
async function noteTheFileAsItIs(path: string, note: string): Promise<void> {
  const st = statSync(path, { bigint: true });
  const now = {
    dev: String(st.dev),
    ino: String(st.ino),
    size: String(st.size),
    mtimeNs: String(st.mtimeNs),
    ctimeNs: String(st.ctimeNs),
  };
  expect(Object.keys(JSON.parse(note))).toEqual(Object.keys(now));
  await writeFile(`${path}.lock`, `999999999\n${JSON.stringify(now)}`); // a pid no process has
}

describe('a start after a crash', () => {
  test('the lock a killed svc left notes the data file its last fold wrote', async () => {
    const path = await killed();
    const [pid, note] = (await readFile(`${path}.lock`, 'utf8')).split('\n');
    expect(Number(pid)).toBe(process.pid);
    expect(JSON.parse(note ?? '')).toMatchObject({ size: String((await readFile(path)).length) });
  });

  test('a data file still as the lock notes it is taken without its checksum, each workspace read when parsed', async () => {
    const path = await killed();
    const note = (await readFile(`${path}.lock`, 'utf8')).split('\n')[1] ?? '';
    await editByHand(path); // the checksum no longer holds: only a read through would see it
    await noteTheFileAsItIs(path, note);
    const { store } = await Store.open(path);
    expect(store.unparsed).toBe(2); // not parsed whole, as a file whose checksum fails is
    expect(store.read('ws_b', 'alpha', 'b1')).toMatchObject({ v: 'AS WRITTEN' });
    expect(store.read('ws_a', 'alpha', 'a2')).toMatchObject({ v: 'journal' }); // replayed
    await store.close();
  });

  test('a data file changed since the lock noted it is read through for its checksum, the change kept', async () => {
    const path = await killed();
    await editByHand(path); // after the note: its times no longer match
    const { store } = await Store.open(path);
    expect(store.unparsed).toBe(0); // parsed whole: its checksum fails
    expect(store.read('ws_b', 'alpha', 'b1')).toMatchObject({ v: 'AS WRITTEN' });
    expect(store.read('ws_a', 'alpha', 'a1')).toMatchObject({ v: 'as written' });
    expect(store.read('ws_a', 'alpha', 'a2')).toMatchObject({ v: 'journal' });
    await store.close();
  });

  test('a restart from the note holds exactly what memory held, and folds and closes as any other', async () => {
    const path = await killed();
    const { store } = await Store.open(path);
    expect(store.unparsed).toBe(2);
    store.transaction((tx) => tx.scope<Loose>('ws_b').put('alpha', { id: 'b2', v: 'after' }));
    await store.close();
    const { store: again } = await Store.open(path);
    expect(dumpScope(again, 'ws_a').alpha?.map((r) => r.id)).toEqual(['a1', 'a2']);
    expect(dumpScope(again, 'ws_b').alpha?.map((r) => r.id)).toEqual(['b1', 'b2']);
    await again.close();
  });

  test('a workspace parsed after the store let go of the file is refused, never read from another', async () => {
    const path = await killed();
    const { store } = await Store.open(path);
    expect(store.unparsed).toBe(2);
    await store.close(); // its descriptor's number may now be any file's
    expect(() => store.read('ws_b', 'alpha', 'b1')).toThrow(StoreFileError);
  });
});
