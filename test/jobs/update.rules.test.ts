// PATCH /jobs/{id}: what cannot be cleared, what is refused (nothing changes), a PATCH that
// changes nothing, archived and assigned_to. spec: JobUpdate, States and transitions;
// decisions.md, Jobs.
import { describe, expect, test } from 'vitest';
import { advance, amendJob, BASE, FULL, newContact, newJob, setup, UNKNOWN } from './setup';

describe('the name and the address cannot be cleared', () => {
  test.each([
    [{ name: null }, 'name'],
    [{ name: '' }, 'name'],
    [{ name: '   ' }, 'name'],
    [{ job_name: null }, 'job_name'],
    [{ job_name: '' }, 'job_name'],
    [{ job_name: '  ' }, 'job_name'],
    [{ name: '', job_name: 'Alias name' }, 'name'],
    [{ address: null }, 'address'],
    [{ address: '' }, 'address'],
    [{ address: '   ' }, 'address'],
    [{ property_address: null }, 'property_address'],
    [{ property_address: '' }, 'property_address'],
    [{ property_address: '  ' }, 'property_address'],
  ])('PATCH %j is 400 with field %s and the job is unchanged', async (body, field) => {
    const { ws } = await setup();
    const job = await newJob(ws, FULL);
    const res = await ws.api.patch(
      `/jobs/${job.id}`,
      { ...body, city: 'Frisco' },
      { invalid: true },
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
    expect((await ws.api.get(`/jobs/${job.id}`)).body).toEqual(job);
  });
});

describe('refused changes', () => {
  test.each([
    ['priority', { priority: 'asap' }, true],
    ['job_type', { job_type: 'commercial' }, true],
    ['financing_method', { financing_method: 'barter' }, true],
    ['date_of_loss', { date_of_loss: '2026-02-30' }, true],
    ['rcv_amount', { rcv_amount: -1 }, true],
    ['name', { name: 'n'.repeat(201) }, true],
    ['job_name', { job_name: 'n'.repeat(201) }, true],
    ['address', { address: 'a'.repeat(301) }, true],
    ['property_address', { property_address: 'a'.repeat(301) }, true],
    ['zip', { zip: '7'.repeat(21) }, true],
    ['zip', { zip: 75201 }, true],
    ['archived', { archived: 'yes' }, true],
    // the comma-separated form passes the document's 5,000 characters; svc holds it to the caps
    ['tags', { tags: 'z'.repeat(101) }, false],
    ['state', { state: 'Texass' }, false],
    ['homeowner_id', { homeowner_id: UNKNOWN }, false],
    ['adjuster_id', { adjuster_id: UNKNOWN }, false],
    ['assigned_to', { assigned_to: UNKNOWN }, false],
    ['pipeline_id', { pipeline_id: UNKNOWN }, false],
  ])('a bad %s is 400 naming it and changes nothing', async (field, body, invalid) => {
    const { ws } = await setup();
    const job = await newJob(ws, FULL);
    const res = await ws.api.patch(`/jobs/${job.id}`, { ...body, city: 'Frisco' }, { invalid });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
    expect((await ws.api.get(`/jobs/${job.id}`)).body).toEqual(job);
  });

  test("another workspace's contact as homeowner_id is 400 with field homeowner_id", async () => {
    const { h, ws } = await setup();
    const other = await h.workspace({ profile: 'empty' });
    const theirs = await newContact(other);
    const job = await newJob(ws);
    const res = await ws.api.patch(`/jobs/${job.id}`, { homeowner_id: theirs.id });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'homeowner_id' });
  });

  test.each([
    ['an unknown job', false],
    ['a deleted job', true],
  ])('PATCH of %s is 404 not_found', async (_case, deleted) => {
    const { ws } = await setup();
    const job = await newJob(ws);
    if (deleted) {
      expect((await ws.api.delete(`/jobs/${job.id}`)).status).toBe(200);
    }
    const res = await ws.api.patch(`/jobs/${deleted ? job.id : UNKNOWN}`, { city: 'Frisco' });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test('a read-only key cannot change a job: 403 forbidden and the job is unchanged', async () => {
    const { ws } = await setup();
    const job = await newJob(ws);
    const res = await ws.read.patch(`/jobs/${job.id}`, { city: 'Frisco' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect((await ws.api.get(`/jobs/${job.id}`)).body).toEqual(job);
  });
});

describe('a PATCH that changes nothing writes nothing', () => {
  test.each([
    [{}],
    [{ city: 'Plano', state: 'Texas', tags: 'vip', priority: 'high' }],
    [{ stage: 'lead' }],
    [{ stage: 'New Lead', archived: false }],
    [{ job_name: BASE.name, property_address: BASE.address, zip: '75024' }],
  ])('PATCH %j keeps updated_at', async (body) => {
    const { h, ws } = await setup();
    const job = await newJob(ws, FULL);
    await advance(h, 3600);
    const res = await ws.api.patch(`/jobs/${job.id}`, body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(job);
    expect((await ws.api.get(`/jobs/${job.id}`)).body.updated_at).toBe(job.updated_at);
  });

  test('PATCH to the same assignee keeps updated_at', async () => {
    const { h, ws, users } = await setup();
    const job = await newJob(ws, { assigned_to: users[1]?.id });
    await advance(h, 3600);
    const res = await ws.api.patch(`/jobs/${job.id}`, { assigned_to: users[1]?.id });
    expect(res.body.updated_at).toBe(job.updated_at);
  });
});

describe('archived', () => {
  test('archived true archives the job, false brings it back live', async () => {
    const { ws } = await setup();
    const job = await newJob(ws);
    const archived = await ws.api.patch(`/jobs/${job.id}`, { archived: true });
    expect(archived.body.archived).toBe(true);
    const live = await ws.api.patch(`/jobs/${job.id}`, { archived: false });
    expect(live.body.archived).toBe(false);
  });
});

describe('assigned_to', () => {
  test('assigned_to makes that teammate primary: first in assignee_ids, named', async () => {
    const { ws, users } = await setup();
    const [a, b] = [users[1], users[2]];
    const job = await newJob(ws, { assigned_to: a?.id });
    const res = await ws.api.patch(`/jobs/${job.id}`, { assigned_to: b?.id });
    expect(res.body).toMatchObject({
      assigned_to_id: b?.id,
      assigned_to_name: b?.name,
      assignee_ids: [b?.id],
      assignee_names: [b?.name],
    });
  });

  test('a new primary replaces the old one and co-assignees stay', async () => {
    const { h, ws, users } = await setup();
    const [a, b, c] = [users[0], users[1], users[2]];
    const job = await newJob(ws, { assigned_to: a?.id });
    await amendJob(h, ws, job.id, { assignee_ids: [a?.id ?? '', b?.id ?? ''] });
    const res = await ws.api.patch(`/jobs/${job.id}`, { assigned_to: c?.id });
    expect(res.body.assigned_to_id).toBe(c?.id);
    expect(res.body.assignee_ids).toEqual([c?.id, b?.id]);
    expect(res.body.assignee_names).toEqual([c?.name, b?.name]);
  });

  test('a co-assignee made primary moves to the front, listed once', async () => {
    const { h, ws, users } = await setup();
    const [a, b] = [users[0], users[1]];
    const job = await newJob(ws, { assigned_to: a?.id });
    await amendJob(h, ws, job.id, { assignee_ids: [a?.id ?? '', b?.id ?? ''] });
    const res = await ws.api.patch(`/jobs/${job.id}`, { assigned_to: b?.id });
    expect(res.body.assignee_ids).toEqual([b?.id]);
  });

  test('assigned_to null removes the primary only; co-assignees stay', async () => {
    const { h, ws, users } = await setup();
    const [a, b] = [users[0], users[1]];
    const job = await newJob(ws, { assigned_to: a?.id });
    await amendJob(h, ws, job.id, { assignee_ids: [a?.id ?? '', b?.id ?? ''] });
    const res = await ws.api.patch(`/jobs/${job.id}`, { assigned_to: null });
    expect(res.body).toMatchObject({
      assigned_to_id: null,
      assigned_to_name: null,
      assignee_ids: [b?.id],
    });
  });

  test("another workspace's user is 400 with field assigned_to", async () => {
    const { h, ws } = await setup();
    const other = await setup('small', h);
    const job = await newJob(ws);
    const res = await ws.api.patch(`/jobs/${job.id}`, { assigned_to: other.users[0]?.id });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'assigned_to' });
  });
});
