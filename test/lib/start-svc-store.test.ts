import { describe, expect, test } from 'vitest';
import { startSvc } from '../../src/lib';
import { databaseForFile, pgAvailable } from '../support/pg';

// Issue 39: `startSvc({store, storeSchema})` is `svc serve --store … --store-schema …`, in a
// child process or in this one: the workspace made for the start lives in PostgreSQL, and a start
// after stop finds it there. A SVC_STORE in the caller's environment is not taken for a store.

test('a store that is no postgres:// URL is a TypeError, and nothing is started', async () => {
  await expect(startSvc({ store: '/tmp/data.json' })).rejects.toThrow(
    /startSvc: store is a postgres:\/\/ URL/,
  );
});

describe.skipIf(!pgAvailable)('startSvc({store})', () => {
  const db = databaseForFile('lib');

  for (const inProcess of [false, true]) {
    test(`${inProcess ? 'in process' : 'a child'}: the records are rows of the schema, and a start after stop finds them`, async () => {
      const storeSchema = inProcess ? 'lib_in' : 'lib_child';
      const svc = await startSvc({ store: db.url, storeSchema, inProcess });
      const made = await fetch(`${svc.baseUrl}/jobs`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${svc.workspace.keys.write}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ name: 'Kept roof', address: '1 Main St' }),
      });
      expect(made.status).toBe(201);
      const job = (await made.json()) as { id: string };
      await svc.stop();
      const rows = await db.sql.query(
        `SELECT data->>'name' AS name FROM ${storeSchema}.records WHERE coll = 'jobs' AND id = $1`,
        [job.id],
      );
      expect(rows.rows).toEqual([{ name: 'Kept roof' }]);
      const again = await startSvc({ store: db.url, storeSchema, inProcess });
      const read = await fetch(`${again.baseUrl}/jobs/${job.id}`, {
        headers: { authorization: `Bearer ${svc.workspace.keys.read}` },
      });
      expect(read.status).toBe(200);
      await again.stop();
    });
  }

  test('SVC_STORE in the caller environment does not become the store of a child started without one', async () => {
    const before = process.env.SVC_STORE;
    process.env.SVC_STORE = db.url;
    try {
      const svc = await startSvc();
      await svc.stop();
    } finally {
      if (before === undefined) {
        delete process.env.SVC_STORE;
      } else {
        process.env.SVC_STORE = before;
      }
    }
    const schemas = await db.sql.query(
      "SELECT schema_name FROM information_schema.schemata WHERE schema_name = 'svc'",
    );
    expect(schemas.rows).toEqual([]);
  });
});
