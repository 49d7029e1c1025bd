import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, test } from 'vitest';
import { type Rec, ScopedStore, Store, StoreFileError } from '../../src/store';
import { harness } from '../support/harness';
import { cleanup } from '../support/spawn';
import { openPath, type Things, thing, withLayout } from './files';

// decisions.md, Store: the data file ends in a layout line (where each workspace's bytes lie) and
// a checksum of all before it; a start trusts a file whose checksum matches and parses each
// workspace on first use. Any other file is parsed whole, and refused whole when it is damaged.

afterEach(cleanup);

const scoped = (store: Store, ws: string) => new ScopedStore<Things>(store, ws);

/** A data file of three workspaces with two records each, closed (snapshot written). */
async function threeWorkspaces(): Promise<string> {
  const { path, store } = await openPath();
  for (const ws of ['ws_a', 'ws_b', 'ws_c']) {
    store.transaction((tx) => {
      tx.scope<Things>(ws).put('things', thing(`${ws}-1`, 1));
      tx.scope<Things>(ws).put('things', thing(`${ws}-2`, 2));
    });
  }
  await store.close();
  return path;
}

/** A copy of the file without its layout and checksum lines: a start parses it whole. */
async function parsedWhole(path: string): Promise<string> {
  const whole = `${path}.whole.json`;
  const text = await readFile(path, 'utf8');
  await writeFile(whole, `${text.slice(0, text.lastIndexOf('\n,"layout":'))}}\n`);
  return whole;
}

const records = (store: Store, ws: string) => [...scoped(store, ws).values('things')];

describe('the layout line', () => {
  test('a file svc wrote ends with it, and is still one valid JSON document', async () => {
    const path = await threeWorkspaces();
    const text = await readFile(path, 'utf8');
    const parsed = JSON.parse(text);
    expect(parsed.crc32).toEqual(expect.any(Number));
    expect(parsed.layout.workspaces_at).toEqual(expect.any(Number));
    expect(Object.keys(parsed.layout.workspaces).sort()).toEqual(['ws_a', 'ws_b', 'ws_c']);
    expect(text.endsWith('}\n')).toBe(true);
    expect(Object.keys(parsed.workspaces.ws_b.things)).toEqual(['ws_b-1', 'ws_b-2']);
  });

  test('on open nothing of a workspace is parsed; the first read parses that one alone', async () => {
    const path = await threeWorkspaces();
    const { store } = await Store.open(path);
    expect(store.unparsed).toBe(3);
    expect(scoped(store, 'ws_b').get('things', 'ws_b-2')).toEqual(thing('ws_b-2', 2));
    expect(store.unparsed).toBe(2);
    const seen: string[] = [];
    store.onLoaded((ws) => seen.push(ws));
    expect(seen).toEqual(['ws_b']);
    store.parseAll();
    expect(seen.sort()).toEqual(['ws_a', 'ws_b', 'ws_c']);
    await store.close();
  });

  test('a lazily opened store holds exactly what a file parsed whole holds', async () => {
    const path = await threeWorkspaces();
    const whole = await parsedWhole(path);
    const { store: lazy } = await Store.open(path);
    const { store: eager } = await Store.open(whole);
    expect(eager.unparsed).toBe(0);
    for (const ws of ['ws_a', 'ws_b', 'ws_c']) {
      expect(records(lazy, ws)).toEqual(records(eager, ws));
    }
    await lazy.close();
    await eager.close();
  });

  test('offsets are bytes: records with accents, emoji and a workspace over 1 MB read back whole', async () => {
    const { path, store } = await openPath();
    const big = 'é🏠'.repeat(200_000); // about 1.2 MB of UTF-8, over one write chunk
    store.transaction((tx) => {
      tx.scope<Things>('ws_big').put('things', thing('big', 1, big));
      tx.scope<Things>('ws_après').put('things', thing('café-1', 2, 'Zoë 🚀 naïve'));
      tx.scope<Things>('ws_z').put('things', thing('z-1', 3));
    });
    await store.close();
    const { store: lazy } = await Store.open(path);
    expect(lazy.unparsed).toBe(3);
    expect(scoped(lazy, 'ws_z').get('things', 'z-1')).toEqual(thing('z-1', 3));
    expect(scoped(lazy, 'ws_après').get('things', 'café-1')).toEqual(
      thing('café-1', 2, 'Zoë 🚀 naïve'),
    );
    expect(scoped(lazy, 'ws_big').get('things', 'big')?.pad).toBe(big);
    await lazy.close();
  });

  test('a write to a workspace not parsed yet keeps every record it held', async () => {
    const path = await threeWorkspaces();
    const { store } = await Store.open(path);
    store.transaction((tx) => tx.scope<Things>('ws_c').put('things', thing('ws_c-3', 3)));
    expect(records(store, 'ws_c').map((r) => r.id)).toEqual(['ws_c-1', 'ws_c-2', 'ws_c-3']);
    await store.close();
  });

  test('a snapshot writes unparsed workspaces back byte for byte, still lazily readable', async () => {
    const path = await threeWorkspaces();
    const before = await readFile(path, 'utf8');
    const { store } = await Store.open(path);
    store.transaction((tx) => tx.scope<Things>('ws_a').put('things', thing('ws_a-3', 3)));
    await store.compact();
    await store.close();
    const after = JSON.parse(await readFile(path, 'utf8'));
    const was = JSON.parse(before);
    expect(after.workspaces.ws_b).toEqual(was.workspaces.ws_b);
    expect(Object.keys(after.workspaces.ws_a.things)).toHaveLength(3);
    const { store: again } = await Store.open(path);
    expect(again.unparsed).toBe(3);
    expect(records(again, 'ws_b')).toEqual([thing('ws_b-1', 1), thing('ws_b-2', 2)]);
    await again.close();
  });

  test('a layout line damaged but still JSON fails the checksum: the file is parsed whole', async () => {
    const path = await threeWorkspaces();
    const text = await readFile(path, 'utf8');
    const at = text.lastIndexOf('"workspaces_at":') + '"workspaces_at":'.length;
    await writeFile(path, `${text.slice(0, at)}1${text.slice(at)}`);
    const { store } = await Store.open(path);
    expect(store.unparsed).toBe(0);
    expect(records(store, 'ws_b').map((r) => r.id)).toEqual(['ws_b-1', 'ws_b-2']);
    await store.close();
  });

  test('a file edited by hand (checksum no longer matching) is parsed whole, edits seen', async () => {
    const path = await threeWorkspaces();
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace('"n":2', '"n":7'));
    const { store } = await Store.open(path);
    expect(store.unparsed).toBe(0);
    expect(scoped(store, 'ws_a').get('things', 'ws_a-2')).toEqual(thing('ws_a-2', 7));
    await store.close();
  });

  test('a damaged workspace is refused at open, naming the file, never left for later', async () => {
    const path = await threeWorkspaces();
    const text = await readFile(path, 'utf8');
    const damaged = text.replace('"ws_c-2":{', '"ws_c-2":{{');
    await writeFile(path, damaged);
    await expect(Store.open(path)).rejects.toThrow(StoreFileError);
    await expect(Store.open(path)).rejects.toThrow(path);
    expect(await readFile(path, 'utf8')).toBe(damaged);
  });
});

// decisions.md, Store: a workspace is parsed a record line at a time, from the layout's spans of
// its collections, so a start never holds the workspace as one text beside its bytes.
describe('a workspace parsed a record at a time', () => {
  interface Two extends Things {
    others: Thing;
  }
  type Thing = ReturnType<typeof thing>;
  const ODD_IDS = ['say "hi"', 'back\\slash', 'new\nline', 'tab\there', 'café 🏠'];

  /** ws_a with two collections (one of ids JSON must escape), ws_b with one; closed. */
  async function twoCollections(): Promise<string> {
    const { path, store } = await openPath();
    store.transaction((tx) => {
      const ws = tx.scope<Two>('ws_a');
      for (const [n, id] of ODD_IDS.entries()) {
        ws.put('things', thing(id, n));
      }
      ws.put('others', thing('other-1', 9, 'x'));
      tx.scope<Things>('ws_b').put('things', thing('b-1', 1));
    });
    await store.close();
    return path;
  }

  const all = (store: Store, ws: string) => {
    const scope = new ScopedStore<Two>(store, ws);
    return { things: [...scope.values('things')], others: [...scope.values('others')] };
  };

  test('every collection reads back as a whole parse has it, ids JSON escapes included', async () => {
    const path = await twoCollections();
    const whole = await parsedWhole(path);
    const { store: lazy } = await Store.open(path);
    const { store: eager } = await Store.open(whole);
    expect(lazy.unparsed).toBe(2);
    expect(all(lazy, 'ws_a')).toEqual(all(eager, 'ws_a'));
    expect(all(lazy, 'ws_a').things.map((r) => r.id)).toEqual(ODD_IDS);
    for (const id of ODD_IDS) {
      expect(new ScopedStore<Two>(lazy, 'ws_a').get('things', id)?.id).toBe(id);
    }
    expect(all(lazy, 'ws_a').others).toEqual([thing('other-1', 9, 'x')]);
    await lazy.close();
    await eager.close();
  });

  test('spans that leave a collection out are not trusted: the workspace is parsed whole', async () => {
    const path = await twoCollections();
    const text = await readFile(path, 'utf8');
    await writeFile(
      path,
      withLayout(text, (layout) => {
        const colls = layout.collections as Record<string, Record<string, unknown>>;
        delete colls.ws_a?.others;
      }),
    );
    const { store } = await Store.open(path);
    expect(store.unparsed).toBe(2); // the checksum holds: still read lazily
    expect(all(store, 'ws_a').others).toEqual([thing('other-1', 9, 'x')]);
    expect(all(store, 'ws_a').things).toHaveLength(ODD_IDS.length);
    await store.close();
  });

  test('records not a line each (joined by hand, checksum redone) are parsed whole', async () => {
    const path = await twoCollections();
    const text = await readFile(path, 'utf8');
    // Same length, so every span still holds: two records now share a line.
    const joined = text.replace(',\n"back', ', "back');
    expect(joined).not.toBe(text);
    await writeFile(
      path,
      withLayout(joined, () => {}),
    );
    const { store } = await Store.open(path);
    expect(store.unparsed).toBe(2);
    expect(all(store, 'ws_a').things.map((r) => r.id)).toEqual(ODD_IDS);
    await store.close();
  });
});

describe('work due in a workspace not parsed yet', () => {
  test('a job deleted before a restart is purged when the clock passes its 30 days', async () => {
    const { path, store } = await openPath();
    const first = harness({ rateLimit: null }, { store });
    const ws = await first.workspace({ name: 'Lazy' });
    const job = await ws.api.post('/jobs', { name: 'Roof', address: '1 Main St' });
    expect((await ws.api.delete(`/jobs/${job.body.id}`)).status).toBe(200);
    await first.rt.store.close();

    const { store: reopened } = await Store.open(path);
    expect(reopened.unparsed).toBe(1);
    const second = harness({ rateLimit: null }, { store: reopened });
    await second.admin.post('/clock', { advance_seconds: 30 * 24 * 3600 + 1 });
    expect(reopened.unparsed).toBe(0);
    expect(
      new ScopedStore<{ jobs: Rec }>(reopened, ws.id).get('jobs', job.body.id),
    ).toBeUndefined();
    await reopened.close();
  });
});
