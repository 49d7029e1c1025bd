import { describe, expect, test } from 'vitest';
import { migrate, SCHEMA_VERSION, SchemaTooNew } from '../../src/store/pg/schema';
import { databaseForFile, pgAvailable } from '../support/pg';

// Issue 39: the PostgreSQL store's schema is created on first use, in a schema of svc's own,
// versioned by a migrations table; a database written by a newer svc is refused with one line
// naming both versions; svc never touches a table outside its schema.

describe.skipIf(!pgAvailable)('the PostgreSQL schema', () => {
  const db = databaseForFile('schema', 4);

  const versions = () => Array.from({ length: SCHEMA_VERSION }, (_, n) => n + 1);

  const tables = async (schema: string) =>
    (
      await db.sql.query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
        [schema],
      )
    ).rows.map((r) => r.table_name);

  test('made on first use in its own schema, with the migrations applied recorded', async () => {
    await db.sql.query('CREATE TABLE public.theirs (id int primary key)');
    await db.sql.query('INSERT INTO public.theirs VALUES (1)');
    const client = await db.sql.connect();
    await migrate(client, 'svc');
    client.release();
    expect(await tables('svc')).toEqual([
      'blobs',
      'changes',
      'claims',
      'faults',
      'flashes',
      'gone',
      'kept_answers',
      'meta',
      'migrations',
      'rate_windows',
      'records',
      'requests',
      'scopes',
      'shared_versions',
    ]);
    const applied = await db.sql.query(
      'SELECT version, svc_version FROM svc.migrations ORDER BY 1',
    );
    expect(applied.rows).toEqual(
      versions().map((version) => ({ version, svc_version: expect.any(String) })),
    );
    expect(await tables('public')).toEqual(['theirs']);
    expect((await db.sql.query('SELECT id FROM public.theirs')).rows).toEqual([{ id: 1 }]);
  });

  test('a second start, or two at once, migrates nothing twice', async () => {
    const [a, b] = [await db.sql.connect(), await db.sql.connect()];
    await Promise.all([migrate(a, 'twice'), migrate(b, 'twice')]);
    a.release();
    b.release();
    const applied = await db.sql.query('SELECT version FROM twice.migrations ORDER BY 1');
    expect(applied.rows).toEqual(versions().map((version) => ({ version })));
  });

  test('a schema written by a newer svc is refused, naming both versions, and left as it is', async () => {
    const client = await db.sql.connect();
    await migrate(client, 'newer');
    await db.sql.query("INSERT INTO newer.migrations (version, svc_version) VALUES (99, '9.9.9')");
    const err = await migrate(client, 'newer').catch((e: unknown) => e);
    client.release();
    expect(err).toBeInstanceOf(SchemaTooNew);
    expect((err as Error).message).toMatch(
      new RegExp(
        `version 99, written by svc 9\\.9\\.9; this svc .* knows version ${SCHEMA_VERSION}`,
      ),
    );
    expect((err as Error).message.split('\n')).toHaveLength(1);
    const kept = await db.sql.query('SELECT max(version) AS v FROM newer.migrations');
    expect(kept.rows[0].v).toBe(99);
  });

  test('a schema name that is not a plain identifier is refused before anything is made', async () => {
    const client = await db.sql.connect();
    for (const name of ['Svc', 'svc; drop table x', '1svc', '']) {
      await expect(migrate(client, name)).rejects.toThrow(/--store-schema/);
    }
    client.release();
  });

  test('a version 1 schema (jsonb) is brought to json, keeping its records; then \\u0000 and key order are kept', async () => {
    const client = await db.sql.connect();
    await migrate(client, 'old', 1);
    await client.query(
      `INSERT INTO old.records VALUES ('g', 'things', 't1', '{"id":"t1","zz":1,"a":2}'::jsonb)`,
    );
    await migrate(client, 'old');
    const kept = await client.query(`SELECT data::text AS t FROM old.records WHERE id = 't1'`);
    expect(JSON.parse(kept.rows[0].t)).toEqual({ id: 't1', zz: 1, a: 2 });
    const written = JSON.stringify({ id: 't2', zz: 'a\u0000b', a: 1 });
    await client.query(`INSERT INTO old.records VALUES ('g', 'things', 't2', $1::json)`, [written]);
    const read = await client.query(`SELECT data::text AS t FROM old.records WHERE id = 't2'`);
    client.release();
    expect(read.rows[0].t).toBe(written);
  });

  test('a version 3 schema is brought to 4: its jobs and deliveries get their second names, a row holding \\u0000 too', async () => {
    const client = await db.sql.connect();
    await migrate(client, 'three', 3);
    const rows = [
      ['jobs', 'j1', { id: 'j1', portal_token: 'tokenOne', notes: 'a\u0000b' }],
      ['deliveries', 'd1', { id: 'd1', webhook_id: 'hook-1' }],
      ['notes', 'n1', { id: 'n1', webhook_id: 'not-a-delivery' }],
    ] as const;
    for (const [coll, id, data] of rows) {
      await client.query(
        `INSERT INTO three.records (scope, coll, id, data) VALUES ('w', $1, $2, $3::json)`,
        [coll, id, JSON.stringify(data)],
      );
    }
    await migrate(client, 'three');
    const named = await client.query('SELECT id, name FROM three.records ORDER BY id');
    client.release();
    expect(named.rows).toEqual([
      { id: 'd1', name: 'hook-1' },
      { id: 'j1', name: 'tokenOne' },
      { id: 'n1', name: null },
    ]);
  });
});
