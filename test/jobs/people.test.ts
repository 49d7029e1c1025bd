import { describe, expect, test } from 'vitest';
import { advance, amendJob, DAYS, idsOf, newContact, newJob, ownJobs, setup } from './setup';

describe('a deleted contact on a job', () => {
  test('a deleted homeowner shows as homeowner_id null and homeowner null', async () => {
    const { ws } = await setup();
    const owner = await newContact(ws);
    const job = await newJob(ws, { homeowner_id: owner.id });
    expect((await ws.api.delete(`/contacts/${owner.id}`)).status).toBe(200);
    const res = await ws.api.get(`/jobs/${job.id}`);
    expect(res.body).toMatchObject({ homeowner_id: null, homeowner: null });
  });

  test('a deleted adjuster shows as adjuster_id null and adjuster null', async () => {
    const { ws } = await setup();
    const adjuster = await newContact(ws, { name: 'Sam Ortiz', type: 'adjuster' });
    const job = await newJob(ws, { adjuster_id: adjuster.id });
    await ws.api.delete(`/contacts/${adjuster.id}`);
    const res = await ws.api.get(`/jobs/${job.id}`);
    expect(res.body).toMatchObject({ adjuster_id: null, adjuster: null });
  });

  test('a deleted secondary contact is left out of secondary_contact_ids', async () => {
    const { h, ws } = await setup();
    const kept = await newContact(ws);
    const gone = await newContact(ws, { name: 'Lee Park' });
    const job = await newJob(ws);
    await amendJob(h, ws, job.id, { secondary_contact_ids: [kept.id, gone.id] });
    await ws.api.delete(`/contacts/${gone.id}`);
    const res = await ws.api.get(`/jobs/${job.id}`);
    expect(res.body.secondary_contact_ids).toEqual([kept.id]);
  });

  test('the homeowner is hidden in lists too', async () => {
    const s = await setup();
    const owner = await newContact(s.ws);
    await newJob(s.ws, { homeowner_id: owner.id });
    await s.ws.api.delete(`/contacts/${owner.id}`);
    const listed = (await ownJobs(s)).body.data[0];
    expect(listed).toMatchObject({ homeowner_id: null, homeowner: null });
  });

  test('restoring the contact brings homeowner_id and the PersonRef back', async () => {
    const { h, ws } = await setup();
    const owner = await newContact(ws, { name: 'Dana Whitfield', email: 'dana@example.com' });
    const job = await newJob(ws, { homeowner_id: owner.id });
    await ws.api.delete(`/contacts/${owner.id}`);
    await advance(h, DAYS(3));
    expect((await h.admin.post(`/contacts/${owner.id}/restore`)).status).toBe(200);
    const res = await ws.api.get(`/jobs/${job.id}`);
    expect(res.body.homeowner_id).toBe(owner.id);
    expect(res.body.homeowner).toEqual(job.homeowner);
  });

  test('after the contact is restored, contact_id finds the job again', async () => {
    const s = await setup();
    const owner = await newContact(s.ws);
    const job = await newJob(s.ws, { homeowner_id: owner.id });
    await s.ws.api.delete(`/contacts/${owner.id}`);
    await s.h.admin.post(`/contacts/${owner.id}/restore`);
    expect(idsOf(await ownJobs(s, { contact_id: owner.id }))).toEqual([job.id]);
  });

  test('after the contact is purged (30 days) the job keeps no link to it', async () => {
    const { h, ws } = await setup();
    const owner = await newContact(ws);
    const job = await newJob(ws, { homeowner_id: owner.id });
    await ws.api.delete(`/contacts/${owner.id}`);
    await advance(h, DAYS(30) + 1);
    expect((await h.admin.post(`/contacts/${owner.id}/restore`)).status).toBe(404);
    const res = await ws.api.get(`/jobs/${job.id}`);
    expect(res.body).toMatchObject({ homeowner_id: null, homeowner: null });
    expect(h.rt.store.workspace(ws.id).get('jobs', job.id)?.homeowner_id).toBeNull();
  });
});

describe('the PersonRef follows the contact', () => {
  test("a change to the contact shows on the job's PersonRef", async () => {
    const { ws } = await setup();
    const owner = await newContact(ws, { name: 'Dana Whitfield' });
    const job = await newJob(ws, { homeowner_id: owner.id });
    await ws.api.patch(`/contacts/${owner.id}`, { email: 'dana@new.example.com' });
    const res = await ws.api.get(`/jobs/${job.id}`);
    expect(res.body.homeowner).toEqual({
      id: owner.id,
      name: 'Dana Whitfield',
      email: 'dana@new.example.com',
      phone: null,
    });
  });
});
