import { describe, expect, test } from 'vitest';
import type { Json, TestWorkspace } from '../support/harness';
import { verify } from '../support/receiver';
import {
  advance,
  EVENT_FIELDS,
  eventsOf,
  one,
  patchJob,
  newJob as postJob,
  recordOf,
  setup,
  subscribe,
  UUID,
} from './setup';

// Job events as a receiver sees them: spec, Events (The 30 events, Delivery body, Delivery
// headers) and decisions.md, Events. Every change goes through /v1; deliveries go to a real
// receiver on 127.0.0.1; `POST /__admin/clock` runs what is due and waits for it.

/** This file's jobs are the Hale roof at 418 Elm Street (job.deleted reads both back). */
const newJob = (ws: TestWorkspace, body: Record<string, unknown> = {}): Promise<Json> =>
  postJob(ws, { name: 'Hale roof', address: '418 Elm Street', ...body });

async function getJob(ws: TestWorkspace, id: string): Promise<Json> {
  const res = await ws.api.get(`/jobs/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function teammates(ws: TestWorkspace): Promise<{ id: string; name: string }[]> {
  const users = (await ws.api.get('/users')).body.data;
  expect(users.length).toBeGreaterThanOrEqual(2);
  return users;
}

describe('job.created', () => {
  test('the body is the job exactly as GET /jobs/{id} returns it, plus the four event fields', async () => {
    const c = await setup();
    await subscribe(c, 'job.created');
    const job = await newJob(c.ws, {
      city: 'Plano',
      state: 'TX',
      postal_code: '75024',
      priority: 'high',
      tags: ['hail'],
      rcv_amount: 12000,
    });
    await advance(c.h, 0);
    const got = one(c.rx, 'job.created');
    const shown = await getJob(c.ws, job.id);
    expect(recordOf(got.json)).toEqual(shown);
    expect(Object.keys(got.json).sort()).toEqual([...Object.keys(shown), ...EVENT_FIELDS].sort());
    // url fields as GET shows them, not rebuilt from some other base
    expect(got.json.url).toBe(shown.url);
    expect(got.json.portal_url).toBe(shown.portal_url);
  });

  test('event_type, event_id (a uuid), event_at (the job updated_at) and event_workspace_id', async () => {
    const c = await setup();
    await subscribe(c, 'job.created');
    const job = await newJob(c.ws);
    await advance(c.h, 0);
    const body = one(c.rx, 'job.created').json;
    expect(body.event_type).toBe('job.created');
    expect(body.event_id).toMatch(UUID);
    expect(body.event_at).toBe(job.updated_at);
    expect(body.event_workspace_id).toBe(c.ws.id);
  });

  test('the headers: event, delivery = event_id, webhook id, attempt 1, JSON, user agent', async () => {
    const c = await setup();
    const sub = await subscribe(c, 'job.created');
    await newJob(c.ws);
    await advance(c.h, 0);
    const got = one(c.rx, 'job.created');
    expect(got.headers['x-service-event']).toBe('job.created');
    expect(got.headers['x-service-delivery']).toBe(got.json.event_id);
    expect(got.headers['x-service-webhook-id']).toBe(sub.id);
    expect(got.headers['x-service-attempt']).toBe('1');
    expect(got.headers['content-type']).toMatch(/^application\/json\b/);
    expect(got.headers['user-agent']).toBe('Service-Webhooks/2.0');
  });

  test('the signature verifies over the raw body with the subscription secret, and only with it', async () => {
    const c = await setup();
    const sub = await subscribe(c, 'job.created');
    await newJob(c.ws);
    await advance(c.h, 0);
    const got = one(c.rx, 'job.created');
    const header = got.headers['x-service-signature'] as string | undefined;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verify(sub.secret, header, got.body)).toBe(true);
    expect(verify(`${sub.secret}x`, header, got.body)).toBe(false);
    expect(verify(sub.secret, header, `${got.body} `)).toBe(false);
  });

  test("a job's notes on create also raise note.created, carrying the note as GET shows it", async () => {
    const c = await setup();
    await subscribe(c, 'note.created');
    const job = await newJob(c.ws, { notes: 'Gate code 4411' });
    await advance(c.h, 0);
    const notes = (await c.ws.api.get(`/jobs/${job.id}/notes`)).body.data;
    expect(notes).toHaveLength(1);
    const got = one(c.rx, 'note.created');
    const shown = (await c.ws.api.get(`/notes/${notes[0].id}`)).body;
    expect(recordOf(got.json)).toEqual(shown);
    expect(shown.content).toBe('Gate code 4411');
  });

  test('a job created without notes raises no note.created', async () => {
    const c = await setup();
    await subscribe(c, 'note.created');
    await newJob(c.ws);
    await advance(c.h, 2);
    expect(c.rx.received).toHaveLength(0);
  });
});

describe('job.stage_changed', () => {
  test('PATCH stage raises it with previous_stage (the old key) and previous_stage_label', async () => {
    const c = await setup();
    await subscribe(c, 'job.stage_changed');
    const job = await newJob(c.ws, { stage: 'inspected' });
    await patchJob(c.ws, job.id, { stage: 'Approved' });
    await advance(c.h, 0);
    const body = one(c.rx, 'job.stage_changed').json;
    expect(body).toMatchObject({
      stage: 'approved',
      stage_label: 'Approved',
      previous_stage: 'inspected',
      previous_stage_label: 'Inspected',
    });
    expect(recordOf(body, ['previous_stage', 'previous_stage_label'])).toEqual(
      await getJob(c.ws, job.id),
    );
  });

  test('a stage move also raises job.updated listing stage, stage_label and stage_entered_at', async () => {
    const c = await setup();
    await subscribe(c, 'job.updated');
    const job = await newJob(c.ws);
    await patchJob(c.ws, job.id, { stage: 'claim_filed' });
    await advance(c.h, 2);
    const body = one(c.rx, 'job.updated').json;
    expect(body.changed_fields).toEqual(
      expect.arrayContaining(['stage', 'stage_label', 'stage_entered_at']),
    );
    expect(body.stage).toBe('claim_filed');
  });

  test('naming the stage the job is already in raises no stage change', async () => {
    const c = await setup();
    await subscribe(c, 'job.stage_changed');
    const job = await newJob(c.ws, { stage: 'inspected' });
    await patchJob(c.ws, job.id, { stage: 'Inspected', city: 'Frisco' });
    await advance(c.h, 2);
    expect(c.rx.received).toHaveLength(0);
  });
});

describe('job.assigned', () => {
  test('a first assignee: previous_assigned_to_id is null; a second: it names the former one', async () => {
    const c = await setup({ profile: 'small' });
    const [a, b] = await teammates(c.ws);
    await subscribe(c, 'job.assigned');
    const job = await newJob(c.ws);
    await patchJob(c.ws, job.id, { assigned_to: a?.id });
    await advance(c.h, 0);
    expect(one(c.rx, 'job.assigned').json).toMatchObject({
      assigned_to_id: a?.id,
      assigned_to_name: a?.name,
      previous_assigned_to_id: null,
    });
    await patchJob(c.ws, job.id, { assigned_to: b?.id });
    await advance(c.h, 0);
    expect(eventsOf(c.rx)).toEqual(['job.assigned', 'job.assigned']);
    const second = c.rx.received[1]?.json;
    expect(second).toMatchObject({ assigned_to_id: b?.id, previous_assigned_to_id: a?.id });
    expect(recordOf(second, ['previous_assigned_to_id'])).toEqual(await getJob(c.ws, job.id));
  });

  test('a job made with an assignee raises job.created and job.assigned (previous null)', async () => {
    const c = await setup({ profile: 'small' });
    const [a] = await teammates(c.ws);
    await subscribe(c, '*');
    const job = await newJob(c.ws, { assigned_to: a?.id });
    await advance(c.h, 0);
    expect(eventsOf(c.rx).sort()).toEqual(['job.assigned', 'job.created']);
    const assigned = one(c.rx, 'job.assigned').json;
    expect(assigned).toMatchObject({ assigned_to_id: a?.id, previous_assigned_to_id: null });
    expect(recordOf(assigned, ['previous_assigned_to_id'])).toEqual(await getJob(c.ws, job.id));
  });

  test('a job made without an assignee raises no job.assigned', async () => {
    const c = await setup({ profile: 'small' });
    await subscribe(c, 'job.assigned');
    await newJob(c.ws);
    await advance(c.h, 0);
    expect(c.rx.received).toHaveLength(0);
  });

  test('clearing assigned_to raises no job.assigned, only job.updated', async () => {
    const c = await setup({ profile: 'small' });
    const [a] = await teammates(c.ws);
    const job = await newJob(c.ws, { assigned_to: a?.id });
    await subscribe(c, '*');
    await patchJob(c.ws, job.id, { assigned_to: null });
    await advance(c.h, 2);
    expect(eventsOf(c.rx)).toEqual(['job.updated']);
    expect(c.rx.received[0]?.json.changed_fields).toEqual(
      expect.arrayContaining(['assigned_to_id', 'assigned_to_name']),
    );
  });

  test('naming the assignee the job already has raises nothing', async () => {
    const c = await setup({ profile: 'small' });
    const [a] = await teammates(c.ws);
    const job = await newJob(c.ws, { assigned_to: a?.id });
    await subscribe(c, '*');
    await patchJob(c.ws, job.id, { assigned_to: a?.id });
    await advance(c.h, 2);
    expect(c.rx.received).toHaveLength(0);
  });
});

describe('job.updated', () => {
  test('PATCH {name} lists exactly ["name"], with the job as GET returns it', async () => {
    const c = await setup();
    await subscribe(c, 'job.updated');
    const job = await newJob(c.ws);
    const patched = await patchJob(c.ws, job.id, { name: 'Hale roof and gutters' });
    await advance(c.h, 2);
    const body = one(c.rx, 'job.updated').json;
    expect(body.changed_fields).toEqual(['name']);
    expect(recordOf(body, ['changed_fields'])).toEqual(await getJob(c.ws, job.id));
    expect(body.event_at).toBe(patched.updated_at);
  });

  test('PATCH {archived: true} lists exactly ["archived"]', async () => {
    const c = await setup();
    await subscribe(c, 'job.updated');
    const job = await newJob(c.ws);
    await patchJob(c.ws, job.id, { archived: true });
    await advance(c.h, 2);
    const body = one(c.rx, 'job.updated').json;
    expect(body.changed_fields).toEqual(['archived']);
    expect(body.archived).toBe(true);
  });

  test('a money field lists the derived fields that moved with it', async () => {
    const c = await setup();
    await subscribe(c, 'job.updated');
    const job = await newJob(c.ws);
    await patchJob(c.ws, job.id, { rcv_amount: 15000 });
    await advance(c.h, 2);
    const body = one(c.rx, 'job.updated').json;
    expect([...body.changed_fields].sort()).toEqual(
      ['balance_due', 'rcv_amount', 'total_job_value'].sort(),
    );
  });

  test('a PATCH that changes nothing raises nothing', async () => {
    const c = await setup();
    const job = await newJob(c.ws, { city: 'Plano' });
    await subscribe(c, '*');
    await patchJob(c.ws, job.id, { name: job.name, city: 'Plano' });
    await advance(c.h, 2);
    expect(c.rx.received).toHaveLength(0);
  });
});

describe('job.deleted', () => {
  test('carries exactly {id, object, deleted, job_number, name, address} and the event fields', async () => {
    const c = await setup();
    await subscribe(c, 'job.deleted');
    const job = await newJob(c.ws, { city: 'Plano', priority: 'high' });
    const before = await advance(c.h, 5);
    const res = await c.ws.api.delete(`/jobs/${job.id}`);
    expect(res.status, res.text).toBe(200);
    const after = await advance(c.h, 0);
    const body = one(c.rx, 'job.deleted').json;
    expect(body).toEqual({
      id: job.id,
      object: 'job',
      deleted: true,
      job_number: job.job_number,
      name: 'Hale roof',
      address: '418 Elm Street',
      event_type: 'job.deleted',
      event_id: expect.stringMatching(UUID),
      event_at: expect.any(String),
      event_workspace_id: c.ws.id,
    });
    // event_at is when the deletion happened, not the job's last update
    expect(body.event_at >= before && body.event_at <= after).toBe(true);
    expect(body.event_at).not.toBe(job.updated_at);
  });

  test('the tasks and notes of a deleted job raise nothing, neither when hidden nor when purged', async () => {
    const c = await setup();
    const job = await newJob(c.ws, { notes: 'From create' });
    expect((await c.ws.api.post('/notes', { job_id: job.id, content: 'More' })).status).toBe(201);
    expect((await c.ws.api.post('/tasks', { title: 'Call', job_id: job.id })).status).toBe(201);
    await subscribe(c, '*');
    expect((await c.ws.api.delete(`/jobs/${job.id}`)).status).toBe(200);
    await advance(c.h, 2);
    expect(eventsOf(c.rx)).toEqual(['job.deleted']);
    await advance(c.h, 31 * 24 * 3600);
    expect((await c.h.admin.post(`/jobs/${job.id}/restore`)).status).toBe(404);
    expect(eventsOf(c.rx)).toEqual(['job.deleted']);
  });

  test('restoring the job raises job.created with the job as GET returns it', async () => {
    const c = await setup();
    const job = await newJob(c.ws);
    await subscribe(c, 'job.created');
    expect((await c.ws.api.delete(`/jobs/${job.id}`)).status).toBe(200);
    await advance(c.h, 0);
    expect(c.rx.received).toHaveLength(0);
    const restored = await c.h.admin.post(`/jobs/${job.id}/restore`);
    expect(restored.status, restored.text).toBe(200);
    await advance(c.h, 0);
    const body = one(c.rx, 'job.created').json;
    expect(recordOf(body)).toEqual(await getJob(c.ws, job.id));
  });
});

describe('several subscriptions', () => {
  test('`*` receives created, stage_changed, assigned, updated and deleted', async () => {
    const c = await setup({ profile: 'small' });
    const [a] = await teammates(c.ws);
    await subscribe(c, '*');
    const job = await newJob(c.ws);
    await patchJob(c.ws, job.id, { stage: 'inspected' });
    await patchJob(c.ws, job.id, { assigned_to: a?.id });
    await advance(c.h, 2);
    expect((await c.ws.api.delete(`/jobs/${job.id}`)).status).toBe(200);
    await advance(c.h, 0);
    expect([...eventsOf(c.rx)].sort()).toEqual(
      ['job.assigned', 'job.created', 'job.deleted', 'job.stage_changed', 'job.updated'].sort(),
    );
    for (const got of c.rx.received) {
      expect(got.headers['x-service-event']).toBe(got.json.event_type);
      expect(got.json.id).toBe(job.id);
    }
  });

  test('job.created and `*` on one change get the same event_id and byte-identical bodies', async () => {
    const c = await setup();
    const specific = await subscribe(c, 'job.created');
    const all = await subscribe(c, '*');
    await newJob(c.ws);
    await advance(c.h, 0);
    expect(c.rx.received).toHaveLength(2);
    const byHook = new Map(c.rx.received.map((r) => [r.headers['x-service-webhook-id'], r]));
    const a = byHook.get(specific.id);
    const b = byHook.get(all.id);
    expect(a && b).toBeTruthy();
    expect(a?.body).toBe(b?.body);
    expect(a?.headers['x-service-delivery']).toBe(b?.headers['x-service-delivery']);
    // each signed with its own subscription's secret
    expect(
      verify(specific.secret, a?.headers['x-service-signature'] as string, a?.body ?? ''),
    ).toBe(true);
    expect(verify(all.secret, b?.headers['x-service-signature'] as string, b?.body ?? '')).toBe(
      true,
    );
  });

  test('two changes are two events with two event_ids', async () => {
    const c = await setup();
    await subscribe(c, 'job.created');
    await newJob(c.ws);
    await newJob(c.ws, { name: 'Second' });
    await advance(c.h, 0);
    const ids = c.rx.received.map((r) => r.json.event_id);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
  });
});
