import { describe, expect, test } from 'vitest';
import { type Harness, harness, type TestWorkspace } from '../support/harness';

const setup = async () => {
  const h = harness({ rateLimit: null });
  return { h, ws: await h.workspace() };
};

const DAY = 24 * 60 * 60;
const advance = (h: Harness, seconds: number) =>
  h.admin.post('/clock', { advance_seconds: seconds });
const ids = (body: { data: { id: string }[] }) => body.data.map((x) => x.id);

/** A contact who is a job's homeowner and has a task of their own. */
async function world(ws: TestWorkspace) {
  const contact = await ws.api.post('/contacts', {
    name: 'Pat Doe',
    email: 'pat@example.com',
    phone: '615-555-0148',
  });
  expect(contact.status).toBe(201);
  const id: string = contact.body.id;
  const job = await ws.api.post('/jobs', { name: 'Roof', address: '1 Main St', homeowner_id: id });
  expect(job.status).toBe(201);
  const task = await ws.api.post('/tasks', { title: 'Call Pat', contact_id: id });
  expect(task.status).toBe(201);
  return {
    id,
    contact: contact.body,
    jobId: job.body.id as string,
    taskId: task.body.id as string,
  };
}

/** What the API shows of the contact and everything it touches. */
async function view(ws: TestWorkspace, w: Awaited<ReturnType<typeof world>>) {
  const job = (await ws.api.get(`/jobs/${w.jobId}`)).body;
  return {
    contact: (await ws.api.get(`/contacts/${w.id}`)).status,
    listed: ids((await ws.api.get('/contacts')).body).includes(w.id),
    byEmail: ids(
      (await ws.api.get('/contacts/search', { query: { email: 'pat@example.com' } })).body,
    ),
    homeowner_id: job.homeowner_id,
    homeowner: job.homeowner,
    task: (await ws.api.get(`/tasks/${w.taskId}`)).status,
    tasksListed: ids((await ws.api.get('/tasks')).body).includes(w.taskId),
    jobsOfContactFilter: ids((await ws.api.get('/jobs', { query: { contact_id: w.id } })).body),
  };
}

describe('DELETE /contacts/{id}', () => {
  test('answers 200 with the deleted confirmation', async () => {
    const { ws } = await setup();
    const w = await world(ws);
    const res = await ws.api.delete(`/contacts/${w.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: w.id, object: 'contact', deleted: true });
  });

  test('the contact is then 404, gone from the list and from search', async () => {
    const { ws } = await setup();
    const w = await world(ws);
    await ws.api.delete(`/contacts/${w.id}`);
    const got = await ws.api.get(`/contacts/${w.id}`);
    expect(got.status).toBe(404);
    expect(got.body.error.code).toBe('not_found');
    const v = await view(ws, w);
    expect(v.listed).toBe(false);
    expect(v.byEmail).toEqual([]);
  });

  test('a second DELETE is 404 not_found', async () => {
    const { ws } = await setup();
    const w = await world(ws);
    await ws.api.delete(`/contacts/${w.id}`);
    const res = await ws.api.delete(`/contacts/${w.id}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test('an unknown contact is 404 not_found', async () => {
    const { ws } = await setup();
    const res = await ws.api.delete(`/contacts/${crypto.randomUUID()}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  // decisions.md, Contacts: jobs show neither the deleted contact's id nor its PersonRef
  test('a job whose homeowner was deleted shows homeowner_id null and homeowner null', async () => {
    const { ws } = await setup();
    const w = await world(ws);
    expect((await ws.api.get(`/jobs/${w.jobId}`)).body.homeowner).toMatchObject({
      id: w.id,
      name: 'Pat Doe',
    });
    await ws.api.delete(`/contacts/${w.id}`);
    const job = await ws.api.get(`/jobs/${w.jobId}`);
    expect(job.status).toBe(200);
    expect(job.body).toMatchObject({ homeowner_id: null, homeowner: null });
  });

  test('a job whose adjuster or secondary contact was deleted no longer shows them', async () => {
    const { h, ws } = await setup();
    const adj = (await ws.api.post('/contacts', { name: 'Ada Adjuster', type: 'adjuster' })).body;
    const sec = (await ws.api.post('/contacts', { name: 'Sec Ond' })).body;
    const job = (
      await ws.api.post('/jobs', { name: 'Roof', address: '1 Main St', adjuster_id: adj.id })
    ).body;
    const store = h.rt.store;
    const rec = store.workspace(ws.id).get('jobs', job.id);
    if (!rec) {
      throw new Error('job not stored');
    }
    store.transaction((tx) =>
      tx.workspace(ws.id).put('jobs', { ...rec, secondary_contact_ids: [sec.id] }),
    );
    await ws.api.delete(`/contacts/${adj.id}`);
    await ws.api.delete(`/contacts/${sec.id}`);
    const res = await ws.api.get(`/jobs/${job.id}`);
    expect(res.body).toMatchObject({
      adjuster_id: null,
      adjuster: null,
      secondary_contact_ids: [],
    });
  });

  test("the contact's tasks are hidden: 404 by id and left out of /tasks", async () => {
    const { ws } = await setup();
    const w = await world(ws);
    await ws.api.delete(`/contacts/${w.id}`);
    const v = await view(ws, w);
    expect(v.task).toBe(404);
    expect(v.tasksListed).toBe(false);
  });

  test('a read-only key is 403 forbidden and the contact stays', async () => {
    const { ws } = await setup();
    const w = await world(ws);
    const res = await ws.read.delete(`/contacts/${w.id}`);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect((await ws.api.get(`/contacts/${w.id}`)).status).toBe(200);
  });
});

describe('restore within 30 days', () => {
  test('restoring brings back the contact, its place on the job and its tasks', async () => {
    const { h, ws } = await setup();
    const w = await world(ws);
    const before = await view(ws, w);
    await ws.api.delete(`/contacts/${w.id}`);
    await advance(h, 30 * DAY - 60);
    const res = await h.admin.post(`/contacts/${w.id}/restore`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: w.id, object: 'contact', full_name: 'Pat Doe' });
    expect(before).toMatchObject({ contact: 200, listed: true, task: 200, tasksListed: true });
    expect(await view(ws, w)).toEqual(before);
    const got = (await ws.api.get(`/contacts/${w.id}`)).body;
    const { updated_at: _, ...unchanged } = w.contact;
    expect(got).toMatchObject(unchanged);
  });

  test('restoring a live contact answers it unchanged', async () => {
    const { h, ws } = await setup();
    const w = await world(ws);
    const res = await h.admin.post(`/contacts/${w.id}/restore`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(w.contact);
  });

  test('restoring a contact that never existed is 404', async () => {
    const { h } = await setup();
    const res = await h.admin.post(`/contacts/${crypto.randomUUID()}/restore`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test('a restored contact is kept when its first 30 days pass', async () => {
    const { h, ws } = await setup();
    const w = await world(ws);
    await ws.api.delete(`/contacts/${w.id}`);
    await advance(h, DAY);
    await h.admin.post(`/contacts/${w.id}/restore`);
    await advance(h, 60 * DAY);
    expect((await ws.api.get(`/contacts/${w.id}`)).status).toBe(200);
    expect((await ws.api.get(`/jobs/${w.jobId}`)).body.homeowner_id).toBe(w.id);
    expect((await ws.api.get(`/tasks/${w.taskId}`)).status).toBe(200);
  });
});

describe('purge after 30 days', () => {
  test('a contact deleted again after a restore gets 30 days from the second deletion', async () => {
    const { h, ws } = await setup();
    const w = await world(ws);
    await ws.api.delete(`/contacts/${w.id}`);
    await advance(h, 20 * DAY);
    await h.admin.post(`/contacts/${w.id}/restore`);
    await advance(h, DAY);
    await ws.api.delete(`/contacts/${w.id}`);
    await advance(h, 10 * DAY); // 31 days after the first deletion, 10 after the second
    expect((await h.admin.post(`/contacts/${w.id}/restore`)).status).toBe(200);
    await ws.api.delete(`/contacts/${w.id}`);
    await advance(h, 30 * DAY + 1);
    expect((await h.admin.post(`/contacts/${w.id}/restore`)).status).toBe(404);
  });

  test('a contact deleted 30 days and a second ago is purged: restore is 404', async () => {
    const { h, ws } = await setup();
    const w = await world(ws);
    await ws.api.delete(`/contacts/${w.id}`);
    await advance(h, 30 * DAY + 1);
    const res = await h.admin.post(`/contacts/${w.id}/restore`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect((await ws.api.get(`/contacts/${w.id}`)).status).toBe(404);
  });

  test('a restore past the 30 days is 404 even before the purge has run, and purges the contact', async () => {
    const { h, ws } = await setup();
    const w = await world(ws);
    await ws.api.delete(`/contacts/${w.id}`);
    // The clock moved on without running due work: the purge task has not run yet.
    h.rt.clock.moveTo(h.rt.clock.nowMs() + (30 * DAY + 1) * 1000);
    const store = h.rt.store.workspace(ws.id);
    expect(store.get('contacts', w.id)).toBeDefined();
    const res = await h.admin.post(`/contacts/${w.id}/restore`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect(store.get('contacts', w.id)).toBeUndefined();
    expect(store.get('jobs', w.jobId)?.homeowner_id).toBeNull();
    expect(store.get('tasks', w.taskId)).toBeUndefined();
  });

  test('after the purge the job keeps homeowner null and the tasks are gone, restore or not', async () => {
    const { h, ws } = await setup();
    const w = await world(ws);
    await ws.api.delete(`/contacts/${w.id}`);
    await advance(h, 30 * DAY + 1);
    await h.admin.post(`/contacts/${w.id}/restore`);
    const v = await view(ws, w);
    expect(v).toMatchObject({
      contact: 404,
      listed: false,
      byEmail: [],
      homeowner_id: null,
      homeowner: null,
      task: 404,
      tasksListed: false,
      jobsOfContactFilter: [],
    });
    // the link is gone for good, not merely hidden
    expect(h.rt.store.workspace(ws.id).get('jobs', w.jobId)?.homeowner_id).toBeNull();
    expect(h.rt.store.workspace(ws.id).get('tasks', w.taskId)).toBeUndefined();
  });
});
