import pg from 'pg';
import { describe, expect, inject, test } from 'vitest';
import { harness } from '../support/harness';
import { ON_POSTGRES, schemaOf, settleTestStores } from '../support/test-store';

// Issue 39: in the `postgres` project every harness runs on PostgreSQL (test/support/test-store.ts),
// and a test fails when PostgreSQL does not hold exactly what memory does. Here, that the switch
// does what it says: an answer that wrote comes once the row is committed, and a difference fails.

const rowOf = async (schema: string, id: string) => {
  const client = new pg.Client({ connectionString: inject('pgHarnessUrl') });
  await client.connect();
  try {
    const { rows } = await client.query<{ t: string }>(
      `SELECT data::text AS t FROM "${schema}".records WHERE id = $1`,
      [id],
    );
    return rows[0]?.t;
  } finally {
    await client.end();
  }
};

describe.skipIf(!ON_POSTGRES)('a harness on PostgreSQL', () => {
  test('an answer that wrote comes once PostgreSQL holds the record, as written, \\u0000 and all', async () => {
    const h = harness();
    const ws = await h.workspace();
    const res = await ws.api.post('/contacts', {
      first_name: 'Nul\u0000Byte',
      last_name: 'Ünïcødé 🏠',
    });
    expect(res.status).toBe(201);
    const row = await rowOf(schemaOf(h.rt.store) ?? '', res.body.id);
    expect(row).toBeDefined();
    expect(JSON.parse(row ?? '{}')).toMatchObject({
      first_name: 'Nul\u0000Byte',
      last_name: 'Ünïcødé 🏠',
    });
  });

  test('a record PostgreSQL holds otherwise than memory fails the test that wrote it', async () => {
    const h = harness();
    const ws = await h.workspace();
    const res = await ws.api.post('/contacts', { first_name: 'Kept' });
    const schema = schemaOf(h.rt.store) ?? '';
    const client = new pg.Client({ connectionString: inject('pgHarnessUrl') });
    await client.connect();
    await client.query(
      `UPDATE "${schema}".records SET data = json_build_object('id', id, 'first_name', 'Changed') WHERE id = $1`,
      [res.body.id],
    );
    await client.end();
    await expect(settleTestStores('test')).rejects.toThrow(
      new RegExp(`schema ${schema}: PostgreSQL holds [\\s\\S]*Changed`),
    );
  });
});
