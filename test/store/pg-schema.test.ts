import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrate, SCHEMA_VERSION, SchemaTooNew } from '../../src/store/pg/schema';
import { freshDatabase, pgAvailable } from '../support/pg';

// Issue 39: the PostgreSQL store's schema is created on first use, in a schema of svc's own,
// versioned by a migrations table; a database written by a newer svc is refused with one line
// naming both versions; svc never touches a table outside its schema.

describe.skipIf(!pgAvailable)('the PostgreSQL schema', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let pool: pg.Pool;
  beforeAll(async () => {
    db = await freshDatabase('schema');
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
  });
  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  const tables = async (schema: string) =>
    (
      await pool.query<{ table_name: string }>(
        'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
        [schema],
      )
    ).rows.map((r) => r.table_name);

  test('made on first use in its own schema, with the migrations applied recorded', async () => {
    await pool.query('CREATE TABLE public.theirs (id int primary key)');
    await pool.query('INSERT INTO public.theirs VALUES (1)');
    const client = await pool.connect();
    await migrate(client, 'svc');
    client.release();
    expect(await tables('svc')).toEqual(['changes', 'meta', 'migrations', 'records', 'scopes']);
    const applied = await pool.query('SELECT version, svc_version FROM svc.migrations');
    expect(applied.rows).toEqual([{ version: SCHEMA_VERSION, svc_version: expect.any(String) }]);
    expect(await tables('public')).toEqual(['theirs']);
    expect((await pool.query('SELECT id FROM public.theirs')).rows).toEqual([{ id: 1 }]);
  });

  test('a second start, or two at once, migrates nothing twice', async () => {
    const [a, b] = [await pool.connect(), await pool.connect()];
    await Promise.all([migrate(a, 'twice'), migrate(b, 'twice')]);
    a.release();
    b.release();
    const applied = await pool.query('SELECT version FROM twice.migrations');
    expect(applied.rows).toEqual([{ version: SCHEMA_VERSION }]);
  });

  test('a schema written by a newer svc is refused, naming both versions, and left as it is', async () => {
    const client = await pool.connect();
    await migrate(client, 'newer');
    await pool.query("INSERT INTO newer.migrations (version, svc_version) VALUES (99, '9.9.9')");
    const err = await migrate(client, 'newer').catch((e: unknown) => e);
    client.release();
    expect(err).toBeInstanceOf(SchemaTooNew);
    expect((err as Error).message).toMatch(
      /version 99, written by svc 9\.9\.9; this svc .* knows version 1/,
    );
    expect((err as Error).message.split('\n')).toHaveLength(1);
    const kept = await pool.query('SELECT max(version) AS v FROM newer.migrations');
    expect(kept.rows[0].v).toBe(99);
  });

  test('a schema name that is not a plain identifier is refused before anything is made', async () => {
    const client = await pool.connect();
    for (const name of ['Svc', 'svc; drop table x', '1svc', '']) {
      await expect(migrate(client, name)).rejects.toThrow(/--store-schema/);
    }
    client.release();
  });
});
