// GET /webhooks/samples/{event}: spec, Webhooks ("up to three real recent records of the
// workspace wrapped as a delivery of that event"), Events › The 30 events (what each is about)
// and Delivery body (the deleted snapshot). A sample is a record the event could be about, by the
// same rule that raises the event (its family's events.ts): a plain task is no appointment, an open
// task was never completed, a job nobody is assigned to was never assigned.
import { describe, expect, test } from 'vitest';
import type { Json, TestWorkspace } from '../support/harness';
import { EVENT_FIELDS, fresh, newJob, ok } from './setup';

async function samples(ws: TestWorkspace, event: string): Promise<Json[]> {
  const body = await ok(ws.api.get(`/webhooks/samples/${event}`));
  expect(body.object).toBe('list');
  for (const item of body.data) {
    expect(item.event_type).toBe(event);
    expect(item.event_workspace_id).toBe(ws.id);
  }
  return body.data;
}

const ids = (data: Json[]): string[] => data.map((d) => d.id);

/** A task on a new job: a plain task, or an appointment when `appointment_type` is given. */
async function newTask(ws: TestWorkspace, body: Record<string, unknown> = {}): Promise<Json> {
  const job = await newJob(ws);
  const path = body.appointment_type === undefined ? '/tasks' : '/appointments';
  return ok(ws.api.post(path, { title: 'Call back', job_id: job.id, ...body }), 201);
}

describe('samples are records the event is about', () => {
  test.each(['contact.created', 'contact.updated', 'contact.deleted'])(
    '%s samples are the newest contacts, a contact just made first',
    async (event) => {
      const { ws } = await fresh();
      const contact = await ok(
        ws.api.post('/contacts', { first_name: 'Ada', last_name: 'Byrd' }),
        201,
      );
      await newJob(ws); // a newer record of another kind is no contact sample
      const data = await samples(ws, event);
      expect(data[0]?.id).toBe(contact.id);
      expect(data.every((d) => d.object === 'contact')).toBe(true);
    },
  );

  test('task.completed samples are completed tasks only; an open task is none', async () => {
    const { ws } = await fresh();
    const done = await newTask(ws, { title: 'Measure roof' });
    await ok(ws.api.patch(`/tasks/${done.id}`, { completed: true }));
    const open = await newTask(ws, { title: 'Order shingles' });
    const data = await samples(ws, 'task.completed');
    expect(data[0]?.id).toBe(done.id);
    expect(ids(data)).not.toContain(open.id);
    expect(data.every((d) => d.object === 'task' && d.completed === true)).toBe(true);
  });

  test('appointment.created samples are appointments only; a plain task is none', async () => {
    const { ws } = await fresh();
    const appointment = await newTask(ws, { appointment_type: 'inspection' });
    const plain = await newTask(ws, { title: 'Send photos' });
    const data = await samples(ws, 'appointment.created');
    expect(data[0]?.id).toBe(appointment.id);
    expect(ids(data)).not.toContain(plain.id);
    expect(data.every((d) => d.is_appointment === true && d.appointment_type !== null)).toBe(true);
    // the plain task is still a task.created sample
    expect((await samples(ws, 'task.created'))[0]?.id).toBe(plain.id);
  });

  test('job.assigned samples are jobs with an assignee; an unassigned job is none', async () => {
    const { ws } = await fresh();
    const [user] = (await ok(ws.api.get('/users'))).data;
    const assigned = await newJob(ws, { name: 'Assigned roof', assigned_to: user.id });
    const unassigned = await newJob(ws, { name: 'Nobody’s roof' });
    expect(unassigned.assigned_to_id).toBeNull();
    const data = await samples(ws, 'job.assigned');
    expect(data[0]?.id).toBe(assigned.id);
    expect(ids(data)).not.toContain(unassigned.id);
    expect(data.every((d) => typeof d.assigned_to_id === 'string')).toBe(true);
    expect(data.every((d) => d.previous_assigned_to_id === null)).toBe(true);
    // any job may have changed stage
    expect((await samples(ws, 'job.stage_changed'))[0]?.id).toBe(unassigned.id);
  });

  test('note.created samples are notes, a note just made first', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const note = await ok(
      ws.api.post('/notes', { job_id: job.id, content: 'Hail on the ridge' }),
      201,
    );
    const data = await samples(ws, 'note.created');
    expect(data[0]).toMatchObject({ id: note.id, object: 'note', content: 'Hail on the ridge' });
    expect(data.every((d) => d.object === 'note')).toBe(true);
  });
});

describe('a *.deleted sample is the deleted snapshot', () => {
  test('task.deleted: exactly id, object, deleted: true, title and job_id, plus the event fields', async () => {
    const { ws } = await fresh();
    const task = await newTask(ws, { title: 'Tarp the roof' });
    const [item] = await samples(ws, 'task.deleted');
    expect(Object.keys(item).sort()).toEqual(
      ['id', 'object', 'deleted', 'title', 'job_id', ...EVENT_FIELDS].sort(),
    );
    expect(item).toMatchObject({
      id: task.id,
      object: 'task',
      deleted: true,
      title: 'Tarp the roof',
      job_id: task.job_id,
    });
  });
});
