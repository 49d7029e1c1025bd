import { describe, expect, test } from 'vitest';
import type { Json } from '../support/harness';
import type { Receiver } from '../support/receiver';
import {
  advance,
  type Ctx,
  setup as hookSetup,
  newJob,
  ok,
  type Profile,
  patchJob,
  subscribe,
} from './setup';

// spec, Events, Filters: a filtered subscription receives the changes that match every key it
// names and nothing else. Each test makes matching and non-matching changes and checks which
// records arrived. A switched-off subscription receives nothing at all.

/** The test's context, with the workspace's team and boards for the filters that name them. */
interface FilterCtx extends Ctx {
  users: { id: string; name: string }[];
  pipelines: { id: string; name: string; is_default: boolean }[];
}

async function setup(profile: Profile = 'empty'): Promise<FilterCtx> {
  const c = await hookSetup({ profile });
  const users = (await c.ws.api.get('/users')).body.data;
  const pipelines = (await c.ws.api.get('/pipelines')).body.data;
  return { ...c, users, pipelines };
}

const newTask = (c: FilterCtx, body: Record<string, unknown>): Promise<Json> =>
  ok(c.ws.api.post('/tasks', { title: 'Visit', ...body }), 201);

/** The record ids that arrived, in order. */
const idsReceived = (rx: Receiver): string[] => rx.received.map((r) => String(r.json.id));

function pipeline(c: FilterCtx, name: string) {
  const found = c.pipelines.find((p) => p.name === name);
  expect(found, `pipeline ${name}`).toBeDefined();
  return found as { id: string };
}

function teammates(c: FilterCtx): [string, string] {
  expect(c.users.length).toBeGreaterThanOrEqual(2);
  return [c.users[0]?.id as string, c.users[1]?.id as string];
}

describe('job.created', () => {
  test('stage given as a key: jobs created in that stage are delivered, others not', async () => {
    const c = await setup();
    await subscribe(c, 'job.created', { stage: 'inspected' });
    const hit = await newJob(c.ws, { stage: 'inspected' });
    await newJob(c.ws);
    await newJob(c.ws, { stage: 'approved' });
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([hit.id]);
  });

  test('stage given as a label is stored as the key and matches that stage', async () => {
    const c = await setup();
    const sub = await subscribe(c, 'job.created', { stage: 'Claim Filed' });
    expect(sub.filters).toEqual({ stage: 'claim_filed' });
    expect((await ok(c.ws.api.get(`/webhooks/${sub.id}`))).filters).toEqual({
      stage: 'claim_filed',
    });
    const hit = await newJob(c.ws, { stage: 'claim_filed' });
    await newJob(c.ws, { stage: 'inspected' });
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([hit.id]);
  });

  test('a label beside pipeline_id is read on that board: "New Lead" on Retail is retail_lead', async () => {
    const c = await setup();
    const retail = pipeline(c, 'Retail');
    const sub = await subscribe(c, 'job.created', { stage: 'New Lead', pipeline_id: retail.id });
    expect(sub.filters).toEqual({ stage: 'retail_lead', pipeline_id: retail.id });
    const hit = await newJob(c.ws, { pipeline_id: retail.id, stage: 'New Lead' });
    await newJob(c.ws, { stage: 'New Lead' });
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([hit.id]);
  });

  test('a stage off the board pipeline_id names is 400 naming filters.stage', async () => {
    const c = await setup();
    const retail = pipeline(c, 'Retail');
    const res = await c.ws.api.post('/webhooks', {
      event: 'job.created',
      target_url: c.rx.url,
      filters: { stage: 'claim_filed', pipeline_id: retail.id },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'filters.stage' });
  });

  test('job_type: only jobs of that type are delivered', async () => {
    const c = await setup();
    await subscribe(c, 'job.created', { job_type: 'retail' });
    const hit = await newJob(c.ws, { job_type: 'retail' });
    await newJob(c.ws, { job_type: 'insurance' });
    await newJob(c.ws);
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([hit.id]);
  });

  test('pipeline_id: only jobs on that board are delivered', async () => {
    const c = await setup();
    const retail = pipeline(c, 'Retail');
    await subscribe(c, 'job.created', { pipeline_id: retail.id });
    const hit = await newJob(c.ws, { pipeline_id: retail.id });
    await newJob(c.ws);
    await newJob(c.ws, { pipeline_id: pipeline(c, 'Insurance Restoration').id });
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([hit.id]);
  });

  test('several keys must all match: job_type and stage', async () => {
    const c = await setup();
    await subscribe(c, 'job.created', { job_type: 'retail', stage: 'retail_scheduled' });
    const hit = await newJob(c.ws, { job_type: 'retail', stage: 'retail_scheduled' });
    await newJob(c.ws, { job_type: 'retail', stage: 'retail_lead' });
    await newJob(c.ws, { job_type: 'insurance', stage: 'retail_scheduled' });
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([hit.id]);
  });
});

describe('job.stage_changed', () => {
  test('previous_stage: only moves out of that stage are delivered', async () => {
    const c = await setup();
    const fromLead = await newJob(c.ws);
    const fromInspected = await newJob(c.ws, { stage: 'inspected' });
    await subscribe(c, 'job.stage_changed', { previous_stage: 'lead' });
    await patchJob(c.ws, fromLead.id, { stage: 'approved' });
    await patchJob(c.ws, fromInspected.id, { stage: 'approved' });
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([fromLead.id]);
    expect(c.rx.received[0]?.json.previous_stage).toBe('lead');
  });

  test('stage and previous_stage together: only that exact move is delivered', async () => {
    const c = await setup();
    const a = await newJob(c.ws, { stage: 'inspected' });
    const b = await newJob(c.ws);
    const d = await newJob(c.ws, { stage: 'inspected' });
    await subscribe(c, 'job.stage_changed', { previous_stage: 'Inspected', stage: 'Approved' });
    await patchJob(c.ws, a.id, { stage: 'approved' }); // inspected → approved
    await patchJob(c.ws, b.id, { stage: 'approved' }); // lead → approved
    await patchJob(c.ws, d.id, { stage: 'claim_filed' }); // inspected → claim_filed
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([a.id]);
  });
});

describe('job.assigned', () => {
  test('assigned_to: only assignments to that user are delivered', async () => {
    const c = await setup('small');
    const [u1, u2] = teammates(c);
    const a = await newJob(c.ws);
    const b = await newJob(c.ws);
    await subscribe(c, 'job.assigned', { assigned_to: u1 });
    await patchJob(c.ws, a.id, { assigned_to: u1 });
    await patchJob(c.ws, b.id, { assigned_to: u2 });
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([a.id]);
  });
});

describe('contact events', () => {
  test('contact.created with type: only contacts of that type are delivered', async () => {
    const c = await setup();
    await subscribe(c, 'contact.created', { type: 'adjuster' });
    const hit = await ok(c.ws.api.post('/contacts', { name: 'Al Adjust', type: 'adjuster' }), 201);
    await ok(c.ws.api.post('/contacts', { name: 'Hal Home', type: 'homeowner' }), 201);
    await ok(c.ws.api.post('/contacts', { name: 'Dee Fault' }), 201);
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([hit.id]);
  });

  test('contact.updated with type: only changes to contacts of that type are delivered', async () => {
    const c = await setup();
    const adj = await ok(c.ws.api.post('/contacts', { name: 'Al Adjust', type: 'adjuster' }), 201);
    const home = await ok(c.ws.api.post('/contacts', { name: 'Hal Home' }), 201);
    await subscribe(c, 'contact.updated', { type: 'adjuster' });
    await ok(c.ws.api.patch(`/contacts/${adj.id}`, { city: 'Austin' }));
    await ok(c.ws.api.patch(`/contacts/${home.id}`, { city: 'Austin' }));
    await advance(c.h, 2);
    expect(idsReceived(c.rx)).toEqual([adj.id]);
  });

  test('contact.deleted with type: reads the type the contact had', async () => {
    const c = await setup();
    const sub = await ok(
      c.ws.api.post('/contacts', { name: 'Sam Sub', type: 'subcontractor' }),
      201,
    );
    const home = await ok(c.ws.api.post('/contacts', { name: 'Hal Home' }), 201);
    await subscribe(c, 'contact.deleted', { type: 'subcontractor' });
    await ok(c.ws.api.delete(`/contacts/${home.id}`));
    await ok(c.ws.api.delete(`/contacts/${sub.id}`));
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([sub.id]);
  });
});

describe('task events', () => {
  test('is_appointment "true": appointments are delivered, plain tasks not', async () => {
    const c = await setup();
    await subscribe(c, 'task.created', { is_appointment: 'true' });
    await newTask(c, { title: 'Call back' });
    const hit = await newTask(c, { appointment_type: 'inspection' });
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([hit.id]);
  });

  test('is_appointment as JSON true filters the same way', async () => {
    const c = await setup();
    const sub = await subscribe(c, 'task.created', { is_appointment: true });
    expect(sub.filters).toEqual({ is_appointment: 'true' });
    await newTask(c, { title: 'Call back' });
    const hit = await ok(
      c.ws.api.post('/appointments', { title: 'Meet', appointment_type: 'adjuster_meeting' }),
      201,
    );
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([hit.id]);
  });

  test('task.updated with is_appointment: edits to plain tasks are not delivered', async () => {
    const c = await setup();
    const plain = await newTask(c, { title: 'Call back' });
    const appt = await newTask(c, { appointment_type: 'inspection' });
    await subscribe(c, 'task.updated', { is_appointment: 'true' });
    await ok(c.ws.api.patch(`/tasks/${plain.id}`, { priority: 'high' }));
    await ok(c.ws.api.patch(`/tasks/${appt.id}`, { priority: 'high' }));
    await advance(c.h, 2);
    expect(idsReceived(c.rx)).toEqual([appt.id]);
  });

  test('appointment_type: only appointments of that type are delivered', async () => {
    const c = await setup();
    await subscribe(c, 'task.created', { appointment_type: 'inspection' });
    const hit = await newTask(c, { appointment_type: 'inspection' });
    await newTask(c, { appointment_type: 'build_day' });
    await newTask(c, { title: 'Call back' });
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([hit.id]);
  });

  test('assigned_to: only tasks of that user are delivered', async () => {
    const c = await setup('small');
    const [u1, u2] = teammates(c);
    await subscribe(c, 'task.created', { assigned_to: u1 });
    const hit = await newTask(c, { assigned_to: u1 });
    await newTask(c, { assigned_to: u2 });
    await newTask(c, {});
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([hit.id]);
  });

  test('task.completed with assigned_to: only that user’s completions are delivered', async () => {
    const c = await setup('small');
    const [u1, u2] = teammates(c);
    const mine = await newTask(c, { assigned_to: u1 });
    const theirs = await newTask(c, { assigned_to: u2 });
    await subscribe(c, 'task.completed', { assigned_to: u1 });
    await ok(c.ws.api.patch(`/tasks/${theirs.id}`, { completed: true }));
    await ok(c.ws.api.patch(`/tasks/${mine.id}`, { completed: true }));
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([mine.id]);
  });

  test('several keys must all match: assigned_to and appointment_type', async () => {
    const c = await setup('small');
    const [u1, u2] = teammates(c);
    await subscribe(c, 'task.created', { assigned_to: u1, appointment_type: 'build_day' });
    const hit = await newTask(c, { assigned_to: u1, appointment_type: 'build_day' });
    await newTask(c, { assigned_to: u1, appointment_type: 'inspection' });
    await newTask(c, { assigned_to: u2, appointment_type: 'build_day' });
    await newTask(c, { assigned_to: u1 });
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([hit.id]);
  });

  test('appointment.created with appointment_type: only that type is delivered', async () => {
    const c = await setup();
    await subscribe(c, 'appointment.created', { appointment_type: 'adjuster_meeting' });
    await newTask(c, { appointment_type: 'inspection' });
    const hit = await newTask(c, { appointment_type: 'adjuster_meeting' });
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([hit.id]);
  });
});

describe('a switched-off subscription', () => {
  test('revoking the key that made it switches it off: nothing is sent or logged', async () => {
    const c = await setup();
    // A read-only key may subscribe; revoking it leaves the write key to make the change.
    const made = await c.ws.read.post('/webhooks', { event: 'job.created', target_url: c.rx.url });
    expect(made.status, made.text).toBe(201);
    await ok(c.h.admin.delete(`/keys/${c.ws.keys.read.id}`));
    const hooks = (await ok(c.h.admin.get('/webhooks', { query: { workspace_id: c.ws.id } }))).data;
    expect(hooks.find((w: Json) => w.id === made.body.id)?.disabled_at).toEqual(expect.any(String));
    await newJob(c.ws);
    await advance(c.h, 2);
    expect(c.rx.received).toHaveLength(0);
    const log = await ok(c.h.admin.get(`/webhooks/${made.body.id}/deliveries`));
    expect(log.data).toEqual([]);
  });

  test('a live subscription beside it still receives the change', async () => {
    const c = await setup();
    const off = await c.ws.read.post('/webhooks', { event: 'job.created', target_url: c.rx.url });
    expect(off.status, off.text).toBe(201);
    const on = await subscribe(c, 'job.created', {});
    await ok(c.h.admin.delete(`/keys/${c.ws.keys.read.id}`));
    await newJob(c.ws);
    await advance(c.h, 0);
    expect(c.rx.received.map((r) => r.headers['x-service-webhook-id'])).toEqual([on.id]);
  });
});
