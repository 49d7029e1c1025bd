import { describe, expect, test } from 'vitest';
import { Store } from '../../src/store';
import { databaseForFile, pgAvailable } from '../support/pg';

// Issue 39: the store on PostgreSQL. Commits apply in memory and are made durable in PostgreSQL,
// a group of them in one PostgreSQL transaction; sync() resolves once they are committed there;
// a store opened again holds what was committed; a record is a row `psql` reads.

const WS = '0b6b8a55-1b75-4c7e-9d35-2a0b3a1c9e01';

describe.skipIf(!pgAvailable)('the store on PostgreSQL', () => {
  const db = databaseForFile('store');

  test('what was committed is there when the store is opened again, and psql reads it', async () => {
    const store = await Store.openPostgres(db.url, 'reopen');
    store.transaction((tx) => {
      tx.global.put('workspaces', { id: WS, object: 'workspace', name: 'Acme' } as never);
      tx.workspace(WS).put('jobs', { id: 'j1', object: 'job', name: 'Roof' } as never);
      tx.workspace(WS).put('jobs', { id: 'j2', object: 'job', name: 'Gutters' } as never);
    });
    await store.sync();
    const rows = await db.sql.query(
      "SELECT data FROM reopen.records WHERE scope = $1 AND coll = 'jobs' ORDER BY id",
      [WS],
    );
    expect(rows.rows.map((r) => r.data.name)).toEqual(['Roof', 'Gutters']);
    await store.close();
    const again = await Store.openPostgres(db.url, 'reopen');
    await again.ensure(WS); // a workspace is read when first used
    expect(again.workspace(WS).get('jobs', 'j2')).toMatchObject({ name: 'Gutters' });
    expect(again.global.get('workspaces', WS)).toMatchObject({ name: 'Acme' });
    await again.close();
  });

  test('opened again, every collection reads in the order memory held it: an update keeps a place, a record made again goes last', async () => {
    const store = await Store.openPostgres(db.url, 'order');
    const put = (id: string, n: number) =>
      store.transaction((tx) => tx.workspace(WS).put('jobs', { id, object: 'job', n } as never));
    for (const id of ['c', 'a', 'd', 'b']) {
      put(id, 0);
    }
    put('c', 1); // updated: keeps its place
    store.transaction((tx) => {
      tx.workspace(WS).delete('jobs', 'a');
      tx.workspace(WS).put('jobs', { id: 'a', object: 'job', n: 2 } as never); // one write: kept
    });
    put('e', 0);
    store.transaction((tx) => tx.workspace(WS).delete('jobs', 'd'));
    put('d', 3); // made again by a later commit of the same group: last
    const inMemory = [...store.workspace(WS).values('jobs')].map((j) => j.id);
    expect(inMemory).toEqual(['c', 'a', 'b', 'e', 'd']);
    await store.close();
    const again = await Store.openPostgres(db.url, 'order');
    await again.ensure(WS);
    expect([...again.workspace(WS).values('jobs')].map((j) => j.id)).toEqual(inMemory);
    await again.close();
  });

  test('a group of commits keeps each key’s last word: writes, overwrites and deletes', async () => {
    const store = await Store.openPostgres(db.url, 'group');
    for (let i = 0; i < 50; i++) {
      store.transaction((tx) => {
        tx.workspace(WS).put('jobs', { id: `j${i % 5}`, object: 'job', n: i } as never);
        if (i % 7 === 0) {
          tx.workspace(WS).delete('jobs', 'j3');
        }
      });
    }
    await store.sync();
    const rows = await db.sql.query(
      `SELECT id, (data->>'n')::int AS n FROM "group".records WHERE coll = 'jobs' ORDER BY id`,
    );
    const inMemory = [...store.workspace(WS).values('jobs')]
      .map((j) => ({ id: j.id, n: (j as unknown as { n: number }).n }))
      .sort((a, b) => a.id.localeCompare(b.id));
    expect(rows.rows).toEqual(inMemory);
    // j3 was written last by the 49th commit and deleted by the 50th.
    expect(rows.rows.map((r) => r.id)).toEqual(['j0', 'j1', 'j2', 'j4']);
    await store.close();
  });

  test("a workspace dropped whole leaves no row of it, and touches no other's", async () => {
    const other = '0b6b8a55-1b75-4c7e-9d35-2a0b3a1c9e02';
    const store = await Store.openPostgres(db.url, 'drop');
    store.transaction((tx) => {
      tx.workspace(WS).put('jobs', { id: 'j1', object: 'job' } as never);
      tx.workspace(other).put('jobs', { id: 'j1', object: 'job' } as never);
    });
    store.transaction((tx) => tx.drop(WS));
    await store.sync();
    const left = await db.sql.query('SELECT DISTINCT scope FROM "drop".records');
    expect(left.rows).toEqual([{ scope: other }]);
    await store.close();
  });

  test('a commit PostgreSQL refuses is never acknowledged, nor kept: the store reads itself back and goes on', async () => {
    const store = await Store.openPostgres(db.url, 'refused');
    store.transaction((tx) => tx.workspace(WS).put('notes', { id: 'n1', object: 'note' } as never));
    await store.sync();
    await db.sql.query("ALTER TABLE refused.records ADD CONSTRAINT no_more CHECK (coll <> 'jobs')");
    store.transaction((tx) => tx.workspace(WS).put('jobs', { id: 'j1', object: 'job' } as never));
    await expect(store.sync()).rejects.toThrow(/PostgreSQL did not commit/);
    // The database answers again: the store is read back, without the write it did not take.
    await db.sql.query('ALTER TABLE refused.records DROP CONSTRAINT no_more');
    for (let i = 0; i < 100 && !store.available; i++) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(store.available).toBe(true);
    await store.ensure(WS); // read back, every workspace is loaded again when used
    expect(store.workspace(WS).get('jobs', 'j1')).toBeUndefined();
    expect(store.workspace(WS).get('notes', 'n1')).toMatchObject({ object: 'note' });
    store.transaction((tx) => tx.workspace(WS).put('jobs', { id: 'j2', object: 'job' } as never));
    await store.sync();
    const rows = await db.sql.query("SELECT id FROM refused.records WHERE coll = 'jobs'");
    expect(rows.rows).toEqual([{ id: 'j2' }]);
    await store.close();
  });
});
