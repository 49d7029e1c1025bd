import { describe, expect, test } from 'vitest';
import { type Harness, harness, type TestWorkspace } from '../support/harness';
import { idsIn, walkPages } from '../support/pages';

// The empty profile seeds no contacts, so a list holds exactly what the test made.
const setup = async (profile = 'empty') => {
  const h = harness({ rateLimit: null });
  return { h, ws: await h.workspace({ profile }) };
};

const tick = (h: Harness, seconds = 1) => h.admin.post('/clock', { advance_seconds: seconds });
const now = async (h: Harness): Promise<string> => (await h.admin.get('/clock')).body.now;
const ids = (body: { data: { id: string }[] }) => body.data.map((c) => c.id);

/** Contacts made one second apart, oldest first. */
async function contacts(h: Harness, ws: TestWorkspace, bodies: Record<string, unknown>[]) {
  const out: string[] = [];
  for (const body of bodies) {
    const res = await ws.api.post('/contacts', body);
    expect(res.status).toBe(201);
    out.push(res.body.id);
    await tick(h);
  }
  return out;
}

describe('GET /contacts', () => {
  test('lists contacts newest first in the list envelope', async () => {
    const { h, ws } = await setup();
    const made = await contacts(h, ws, [{ name: 'A One' }, { name: 'B Two' }, { name: 'C Three' }]);
    const res = await ws.api.get('/contacts');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(ids(res.body)).toEqual([...made].reverse());
    expect(res.body.data[0]).toMatchObject({ object: 'contact', full_name: 'C Three' });
  });

  test('pages follow next_cursor to the end, each contact once, newest first', async () => {
    const { h, ws } = await setup();
    const made = await contacts(
      h,
      ws,
      Array.from({ length: 5 }, (_, i) => ({ name: `Person ${i}` })),
    );
    const { data, pages } = await walkPages(ws.api, '/contacts', { limit: 2 });
    expect(pages).toBe(3);
    expect(idsIn(data)).toEqual([...made].reverse());
  });

  test('type filters to contacts of that type', async () => {
    const { h, ws } = await setup();
    const [, adjuster, , inspector] = await contacts(h, ws, [
      { name: 'Home Owner' },
      { name: 'Ada Adjuster', type: 'adjuster' },
      { name: 'Con Tractor', type: 'contractor' },
      { name: 'Ivan Inspector', type: 'inspector' },
    ]);
    expect(ids((await ws.api.get('/contacts', { query: { type: 'adjuster' } })).body)).toEqual([
      adjuster,
    ]);
    expect(ids((await ws.api.get('/contacts', { query: { type: 'inspector' } })).body)).toEqual([
      inspector,
    ]);
    expect((await ws.api.get('/contacts', { query: { type: 'other' } })).body.data).toEqual([]);
  });

  test('a type that is not a contact type is 400 field type', async () => {
    const { ws } = await setup();
    const res = await ws.api.get('/contacts', { query: { type: 'plumber' }, invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'type' });
  });

  test('assigned_to filters to contacts assigned to that teammate', async () => {
    const { h, ws } = await setup('small');
    const start = await now(h); // the small profile's own contacts were made before
    const [u1, u2] = (await ws.api.get('/users')).body.data;
    const [a, , c] = await contacts(h, ws, [
      { name: 'A One', assigned_to: u1.id },
      { name: 'B Two', assigned_to: u2.id },
      { name: 'C Three', assigned_to: u1.id },
      { name: 'D Four' },
    ]);
    const res = await ws.api.get('/contacts', {
      query: { assigned_to: u1.id, created_after: start },
    });
    expect(ids(res.body)).toEqual([c, a]);
    const all = await ws.api.get('/contacts', { query: { assigned_to: u1.id, limit: 200 } });
    expect(all.body.data.every((x: { assigned_to_id: string }) => x.assigned_to_id === u1.id)).toBe(
      true,
    );
    const nobody = await ws.api.get('/contacts', { query: { assigned_to: crypto.randomUUID() } });
    expect(nobody.status).toBe(200);
    expect(nobody.body.data).toEqual([]);
  });

  test('assigned_to that is not a uuid is 400 field assigned_to', async () => {
    const { ws } = await setup();
    const res = await ws.api.get('/contacts', { query: { assigned_to: 'bob' }, invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'assigned_to' });
  });

  test('type and assigned_to combine', async () => {
    const { h, ws } = await setup('small');
    const start = await now(h);
    const [u1] = (await ws.api.get('/users')).body.data;
    const [, b] = await contacts(h, ws, [
      { name: 'A One', assigned_to: u1.id },
      { name: 'B Two', assigned_to: u1.id, type: 'adjuster' },
      { name: 'C Three', type: 'adjuster' },
    ]);
    const res = await ws.api.get('/contacts', {
      query: { assigned_to: u1.id, type: 'adjuster', created_after: start },
    });
    expect(ids(res.body)).toEqual([b]);
  });

  test('updated_since keeps contacts changed at or after the instant', async () => {
    const { h, ws } = await setup();
    const [a, b] = await contacts(h, ws, [{ name: 'A One' }, { name: 'B Two' }]);
    await tick(h, 60);
    const since = await now(h);
    await ws.api.patch(`/contacts/${a}`, { city: 'Franklin' });
    const res = await ws.api.get('/contacts', { query: { updated_since: since } });
    expect(ids(res.body)).toEqual([a]);
    expect(ids(res.body)).not.toContain(b);
  });

  test('created_after is inclusive and created_before exclusive', async () => {
    const { h, ws } = await setup();
    const [a] = await contacts(h, ws, [{ name: 'A One' }]);
    await tick(h, 3600);
    const middle = await now(h);
    const [b] = await contacts(h, ws, [{ name: 'B Two' }]);
    expect(ids((await ws.api.get('/contacts', { query: { created_after: middle } })).body)).toEqual(
      [b],
    );
    expect(
      ids((await ws.api.get('/contacts', { query: { created_before: middle } })).body),
    ).toEqual([a]);
    const created = (await ws.api.get(`/contacts/${b}`)).body.created_at;
    expect(
      ids((await ws.api.get('/contacts', { query: { created_after: created } })).body),
    ).toEqual([b]);
    expect(
      (await ws.api.get('/contacts', { query: { created_before: '2000-01-01' } })).body.data,
    ).toEqual([]);
  });

  test.each(['updated_since', 'created_after', 'created_before'])(
    '%s that is not a date is 400 naming it',
    async (name) => {
      const { ws } = await setup();
      const res = await ws.api.get('/contacts', { query: { [name]: 'yesterday' } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field: name });
    },
  );

  test('deleted contacts are left out', async () => {
    const { h, ws } = await setup();
    const [a, b] = await contacts(h, ws, [{ name: 'A One' }, { name: 'B Two' }]);
    await ws.api.delete(`/contacts/${a}`);
    expect(ids((await ws.api.get('/contacts')).body)).toEqual([b]);
  });

  test('a cursor of /contacts is refused by /contacts/{id}/jobs: 400 field cursor', async () => {
    const { h, ws } = await setup();
    const [a] = await contacts(h, ws, [{ name: 'A One' }, { name: 'B Two' }]);
    const { next_cursor } = (await ws.api.get('/contacts', { query: { limit: 1 } })).body;
    expect(next_cursor).toEqual(expect.any(String));
    const res = await ws.api.get(`/contacts/${a}/jobs`, { query: { cursor: next_cursor } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'cursor' });
  });
});
