import { describe, expect, test } from 'vitest';
import { type Harness, harness, type TestWorkspace } from '../support/harness';
import { idsIn, walkPages } from '../support/pages';

const setup = async () => {
  const h = harness({ rateLimit: null });
  return { h, ws: await h.workspace() };
};

const tick = (h: Harness) => h.admin.post('/clock', { advance_seconds: 1 });
const ids = (body: { data: { id: string }[] }) => body.data.map((j) => j.id);

async function contact(ws: TestWorkspace, name: string): Promise<string> {
  const res = await ws.api.post('/contacts', { name });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function job(h: Harness, ws: TestWorkspace, body: Record<string, unknown> = {}) {
  const res = await ws.api.post('/jobs', { name: 'Roof', address: '1 Main St', ...body });
  expect(res.status).toBe(201);
  await tick(h);
  return res.body.id as string;
}

/** The API cannot set secondary contacts: write them through the store for the setup. */
async function addSecondary(h: Harness, ws: TestWorkspace, jobId: string, contactId: string) {
  const store = h.rt.store;
  await store.ensure(ws.id); // on PostgreSQL, let go since its last request
  const current = store.workspace(ws.id).get('jobs', jobId);
  if (!current) {
    throw new Error(`no job ${jobId}`);
  }
  store.transaction((tx) =>
    tx.workspace(ws.id).put('jobs', {
      ...current,
      secondary_contact_ids: [...current.secondary_contact_ids, contactId],
    }),
  );
}

describe('GET /contacts/{id}/jobs', () => {
  test('every job the person is on: homeowner, adjuster, secondary contact; newest first', async () => {
    const { h, ws } = await setup();
    const c = await contact(ws, 'Pat Doe');
    const other = await contact(ws, 'Bo Diaz');
    const asHomeowner = await job(h, ws, { homeowner_id: c });
    const asAdjuster = await job(h, ws, { adjuster_id: c, homeowner_id: other });
    const asSecondary = await job(h, ws, { homeowner_id: other });
    await addSecondary(h, ws, asSecondary, c);
    await job(h, ws, { homeowner_id: other });
    await job(h, ws);
    const res = await ws.api.get(`/contacts/${c}/jobs`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(ids(res.body)).toEqual([asSecondary, asAdjuster, asHomeowner]);
    expect(res.body.data[0]).toMatchObject({ object: 'job', secondary_contact_ids: [c] });
  });

  // decisions.md, Jobs: contact_id matches secondary adjusters too
  test('a job where the person is a secondary adjuster is included', async () => {
    const { h, ws } = await setup();
    const c = await contact(ws, 'Ada Adjuster');
    const j = await job(h, ws);
    await job(h, ws);
    const store = h.rt.store;
    await store.ensure(ws.id);
    const current = store.workspace(ws.id).get('jobs', j);
    if (!current) {
      throw new Error(`no job ${j}`);
    }
    store.transaction((tx) =>
      tx.workspace(ws.id).put('jobs', { ...current, secondary_adjuster_ids: [c] }),
    );
    expect(ids((await ws.api.get(`/contacts/${c}/jobs`)).body)).toEqual([j]);
  });

  test('archived jobs are included', async () => {
    const { h, ws } = await setup();
    const c = await contact(ws, 'Pat Doe');
    const archived = await job(h, ws, { homeowner_id: c });
    const live = await job(h, ws, { homeowner_id: c });
    const patched = await ws.api.patch(`/jobs/${archived}`, { archived: true });
    expect(patched.body.archived).toBe(true);
    expect(ids((await ws.api.get(`/contacts/${c}/jobs`)).body)).toEqual([live, archived]);
  });

  test('deleted jobs are left out, and come back when the job is restored', async () => {
    const { h, ws } = await setup();
    const c = await contact(ws, 'Pat Doe');
    const kept = await job(h, ws, { homeowner_id: c });
    const deleted = await job(h, ws, { adjuster_id: c });
    expect((await ws.api.delete(`/jobs/${deleted}`)).status).toBe(200);
    expect(ids((await ws.api.get(`/contacts/${c}/jobs`)).body)).toEqual([kept]);
    expect((await h.admin.post(`/jobs/${deleted}/restore`)).status).toBe(200);
    expect(ids((await ws.api.get(`/contacts/${c}/jobs`)).body)).toEqual([deleted, kept]);
  });

  test('a contact on no job has an empty list', async () => {
    const { h, ws } = await setup();
    const c = await contact(ws, 'Pat Doe');
    await job(h, ws);
    const res = await ws.api.get(`/contacts/${c}/jobs`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  test('pages follow next_cursor to the end, each job once', async () => {
    const { h, ws } = await setup();
    const c = await contact(ws, 'Pat Doe');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(await job(h, ws, { homeowner_id: c }));
    }
    await job(h, ws);
    const { data, pages } = await walkPages(ws.api, `/contacts/${c}/jobs`, { limit: 2 });
    expect(pages).toBe(3);
    expect(idsIn(data)).toEqual([...made].reverse());
  });

  test("a cursor of one contact's jobs is 400 field cursor on another's", async () => {
    const { h, ws } = await setup();
    const a = await contact(ws, 'Pat Doe');
    const b = await contact(ws, 'Bo Diaz');
    await job(h, ws, { homeowner_id: a });
    await job(h, ws, { homeowner_id: a });
    const { next_cursor } = (await ws.api.get(`/contacts/${a}/jobs`, { query: { limit: 1 } })).body;
    const res = await ws.api.get(`/contacts/${b}/jobs`, { query: { cursor: next_cursor } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'cursor' });
  });

  // spec, Pagination 3: every paged list accepts the time filters
  test('created_after, created_before and updated_since narrow the list', async () => {
    const { h, ws } = await setup();
    const c = await contact(ws, 'Pat Doe');
    const old = await job(h, ws, { homeowner_id: c });
    const touched = await job(h, ws, { homeowner_id: c });
    const mark = (await tick(h)).body.now as string;
    const recent = await job(h, ws, { homeowner_id: c });
    expect((await ws.api.patch(`/jobs/${touched}`, { city: 'Plano' })).status).toBe(200);
    const list = async (query: Record<string, string>) =>
      ids((await ws.api.get(`/contacts/${c}/jobs`, { query })).body);
    expect(await list({ created_after: mark })).toEqual([recent]);
    expect(await list({ created_before: mark })).toEqual([touched, old]);
    expect(await list({ updated_since: mark })).toEqual([recent, touched]);
  });

  test.each(['updated_since', 'created_after', 'created_before'])(
    'a bad %s is 400 naming it',
    async (field) => {
      const { ws } = await setup();
      const c = await contact(ws, 'Pat Doe');
      const res = await ws.api.get(`/contacts/${c}/jobs`, {
        query: { [field]: '2026-13-01' },
        invalid: true,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
    },
  );

  test('an unknown contact is 404 not_found', async () => {
    const { ws } = await setup();
    const res = await ws.api.get(`/contacts/${crypto.randomUUID()}/jobs`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test('a deleted contact is 404 not_found', async () => {
    const { h, ws } = await setup();
    const c = await contact(ws, 'Pat Doe');
    await job(h, ws, { homeowner_id: c });
    await ws.api.delete(`/contacts/${c}`);
    const res = await ws.api.get(`/contacts/${c}/jobs`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test('a read-only key may list them', async () => {
    const { h, ws } = await setup();
    const c = await contact(ws, 'Pat Doe');
    const j = await job(h, ws, { homeowner_id: c });
    const res = await ws.read.get(`/contacts/${c}/jobs`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([j]);
  });
});
