import { describe, expect, test } from 'vitest';
import type { Json, TestWorkspace } from '../support/harness';
import { addContact, addJob, addTask, advance, expectInvalid, setup, users } from './setup';

/** A task with every field set, so each PATCH below has something to change or clear. */
async function fullTask(ws: TestWorkspace): Promise<Json> {
  const [user] = await users(ws);
  return addTask(ws, {
    title: 'Adjuster meeting at the Smiths',
    description: 'Bring the drone',
    due_date: '2026-05-14T09:30:00',
    end_date: '2026-05-15',
    duration_minutes: 90,
    priority: 'high',
    appointment_type: 'adjuster_meeting',
    outcome: 'rescheduled',
    customer_reminder: 'sms',
    reminder_minutes: 30,
    job_id: await addJob(ws),
    contact_id: await addContact(ws),
    assigned_to: user?.id,
  });
}

/** The fields a PATCH may leave alone: everything but updated_at. */
const unchanged = ({ updated_at, ...rest }: Json) => rest;

describe('only fields sent change', () => {
  test.each([
    ['title', 'Meet Allstate adjuster'],
    ['description', 'Bring ladder and drone'],
    ['due_date', '2026-05-15T14:00:00'],
    ['end_date', '2026-05-21'],
    ['duration_minutes', 45],
    ['priority', 'low'],
    ['appointment_type', 'inspection'],
    ['outcome', 'no_show'],
    ['customer_reminder', 'email'],
    ['reminder_minutes', 15],
  ])('PATCH %s changes that field alone', async (field, value) => {
    const { h, ws } = await setup();
    const task = await fullTask(ws);
    await advance(h, 60);
    const res = await ws.api.patch(`/tasks/${task.id}`, { [field]: value });
    expect(res.status, res.text).toBe(200);
    expect(unchanged(res.body)).toEqual({ ...unchanged(task), [field]: value });
    expect(res.body.updated_at > task.updated_at).toBe(true);
    expect((await ws.api.get(`/tasks/${task.id}`)).body).toEqual(res.body);
  });

  test('PATCH of job_id, contact_id and assigned_to moves the links alone', async () => {
    const { ws } = await setup('small');
    const task = await fullTask(ws);
    const jobId = await addJob(ws, 'Gutters');
    const contactId = await addContact(ws, 'Joe Brown');
    const [, teammate] = await users(ws);
    const res = await ws.api.patch(`/tasks/${task.id}`, {
      job_id: jobId,
      contact_id: contactId,
      assigned_to: teammate?.id,
    });
    expect(res.status, res.text).toBe(200);
    expect(unchanged(res.body)).toEqual({
      ...unchanged(task),
      job_id: jobId,
      contact_id: contactId,
      assigned_to_id: teammate?.id,
      assigned_to_name: teammate?.name,
    });
  });

  test('an empty PATCH changes nothing and keeps updated_at', async () => {
    const { h, ws } = await setup();
    const task = await fullTask(ws);
    await advance(h, 3600);
    const res = await ws.api.patch(`/tasks/${task.id}`, {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual(task);
  });

  test('a PATCH sending the values already held keeps updated_at', async () => {
    const { h, ws } = await setup();
    const task = await fullTask(ws);
    await advance(h, 3600);
    const res = await ws.api.patch(`/tasks/${task.id}`, {
      title: task.title,
      priority: task.priority,
      due_date: '2026-05-14T09:30:00-05:00', // the same digits once the offset is dropped
      job_id: task.job_id,
      assigned_to: task.assigned_to_id,
      completed: false,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual(task);
    expect((await ws.api.get(`/tasks/${task.id}`)).body.updated_at).toBe(task.updated_at);
  });
});

describe('null clears', () => {
  test.each([
    ['description', 'description'],
    ['due_date', 'due_date'],
    ['end_date', 'end_date'],
    ['duration_minutes', 'duration_minutes'],
    ['priority', 'priority'],
    ['outcome', 'outcome'],
    ['customer_reminder', 'customer_reminder'],
    ['reminder_minutes', 'reminder_minutes'],
    ['job_id', 'job_id'],
    ['contact_id', 'contact_id'],
    ['assigned_to', 'assigned_to_id'],
  ])('%s: null clears %s and nothing else', async (field, shown) => {
    const { ws } = await setup();
    const task = await fullTask(ws);
    const res = await ws.api.patch(`/tasks/${task.id}`, { [field]: null });
    expect(res.status, res.text).toBe(200);
    const expected = { ...unchanged(task), [shown]: null };
    if (field === 'assigned_to') {
      expected.assigned_to_name = null;
    }
    expect(unchanged(res.body)).toEqual(expected);
    expect((await ws.api.get(`/tasks/${task.id}`)).body[shown]).toBeNull();
  });

  test('appointment_type: null turns an appointment into a task, keeping its title', async () => {
    const { ws } = await setup();
    const appt = await addTask(ws, { appointment_type: 'inspection' }, '/appointments');
    const res = await ws.api.patch(`/tasks/${appt.id}`, { appointment_type: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      is_appointment: false,
      appointment_type: null,
      title: 'Inspection',
    });
    const appointments = await ws.api.get('/appointments', { query: { limit: 200 } });
    expect(appointments.body.data.map((t: { id: string }) => t.id)).not.toContain(appt.id);
  });

  test('appointment_type on a task makes it an appointment', async () => {
    const { ws } = await setup();
    const task = await addTask(ws, { title: 'Walk the roof' });
    const res = await ws.api.patch(`/tasks/${task.id}`, { appointment_type: 'inspection' });
    expect(res.body).toMatchObject({
      is_appointment: true,
      appointment_type: 'inspection',
      title: 'Walk the roof',
    });
    const appointments = await ws.api.get('/appointments', { query: { limit: 1 } });
    expect(appointments.body.data[0]?.id).toBe(task.id);
  });

  test.each([
    ['null', null],
    ['empty', ''],
    ['white space only', '   '],
  ])('title cannot be cleared: %s is 400 field title', async (_, title) => {
    const { ws } = await setup();
    const task = await addTask(ws, { title: 'Keep me' });
    const res = await ws.api.patch(`/tasks/${task.id}`, { title }, { invalid: true });
    expectInvalid(res, 'title');
    expect((await ws.api.get(`/tasks/${task.id}`)).body.title).toBe('Keep me');
  });
});

describe('completed', () => {
  test('completed: true marks a task done and stamps completed_at with the clock', async () => {
    const { h, ws } = await setup();
    const task = await addTask(ws, { title: 'Final walk-through' });
    const now = await advance(h, 3600);
    const res = await ws.api.patch(`/tasks/${task.id}`, { completed: true });
    expect(res.body.completed).toBe(true);
    const ms = Date.parse(res.body.completed_at) - Date.parse(now);
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(ms).toBeLessThan(60_000);
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(now));
  });

  test('a second completed: true keeps the first completed_at and updated_at', async () => {
    const { h, ws } = await setup();
    const task = await addTask(ws, { title: 'Final walk-through' });
    const first = await ws.api.patch(`/tasks/${task.id}`, { completed: true });
    await advance(h, 86_400);
    const second = await ws.api.patch(`/tasks/${task.id}`, { completed: true });
    expect(second.status).toBe(200);
    expect(second.body.completed_at).toBe(first.body.completed_at);
    expect(second.body.updated_at).toBe(first.body.updated_at);
  });

  test('completed: false clears completed_at; done again, it is stamped anew', async () => {
    const { h, ws } = await setup();
    const task = await addTask(ws, { title: 'Final walk-through', completed: true });
    await advance(h, 60);
    const reopened = await ws.api.patch(`/tasks/${task.id}`, { completed: false });
    expect(reopened.body).toMatchObject({ completed: false, completed_at: null });
    expect((await ws.api.get(`/tasks/${task.id}`)).body.completed_at).toBeNull();
    const later = await advance(h, 3600);
    const done = await ws.api.patch(`/tasks/${task.id}`, { completed: true });
    expect(done.body.completed).toBe(true);
    expect(Date.parse(done.body.completed_at)).toBeGreaterThanOrEqual(Date.parse(later));
  });

  test.each([null, 'true', 1])('completed = %j is 400 field completed', async (completed) => {
    const { ws } = await setup();
    const task = await addTask(ws, { title: 't' });
    const res = await ws.api.patch(`/tasks/${task.id}`, { completed }, { invalid: true });
    expectInvalid(res, 'completed');
  });
});

describe('refused updates', () => {
  test('PATCH of an unknown task is 404 not_found', async () => {
    const { ws } = await setup();
    const res = await ws.api.patch(`/tasks/${crypto.randomUUID()}`, { title: 'x' });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test.each([
    ['priority', 'urgent'],
    ['appointment_type', 'site_visit'],
    ['outcome', 'done'],
    ['customer_reminder', 'phone'],
    ['duration_minutes', 1.5],
    ['reminder_minutes', 1.5],
    ['end_date', '2026-02-30'],
    ['job_id', 'not-a-uuid'],
  ])('%s = %j is 400 naming it, and nothing else sent is written', async (field, value) => {
    const { h, ws } = await setup();
    const task = await fullTask(ws);
    await advance(h, 60);
    const res = await ws.api.patch(
      `/tasks/${task.id}`,
      { title: 'Changed', [field]: value },
      { invalid: true },
    );
    expectInvalid(res, field);
    expect((await ws.api.get(`/tasks/${task.id}`)).body).toEqual(task);
  });

  test.each(['job_id', 'contact_id', 'assigned_to'])(
    'an unknown %s is 400 naming it, and nothing is written',
    async (field) => {
      const { ws } = await setup();
      const task = await fullTask(ws);
      const res = await ws.api.patch(`/tasks/${task.id}`, {
        title: 'Changed',
        [field]: crypto.randomUUID(),
      });
      expectInvalid(res, field);
      expect((await ws.api.get(`/tasks/${task.id}`)).body).toEqual(task);
    },
  );

  test('a deleted job or contact cannot be linked: 400 naming the field', async () => {
    const { ws } = await setup();
    const task = await addTask(ws, { title: 't' });
    const jobId = await addJob(ws);
    const contactId = await addContact(ws);
    await ws.api.delete(`/jobs/${jobId}`);
    await ws.api.delete(`/contacts/${contactId}`);
    expectInvalid(await ws.api.patch(`/tasks/${task.id}`, { job_id: jobId }), 'job_id');
    expectInvalid(await ws.api.patch(`/tasks/${task.id}`, { contact_id: contactId }), 'contact_id');
    expect((await ws.api.get(`/tasks/${task.id}`)).body).toEqual(task);
  });

  test("another workspace's job, contact or user cannot be linked: 400 naming the field", async () => {
    const { h, ws } = await setup();
    const other = await h.workspace({ profile: 'empty' });
    const task = await addTask(ws, { title: 't' });
    const [user] = await users(other);
    const cases: [string, string | undefined][] = [
      ['job_id', await addJob(other)],
      ['contact_id', await addContact(other)],
      ['assigned_to', user?.id],
    ];
    for (const [field, id] of cases) {
      expectInvalid(await ws.api.patch(`/tasks/${task.id}`, { [field]: id }), field);
    }
    expect((await ws.api.get(`/tasks/${task.id}`)).body).toEqual(task);
  });

  test('end_date before the day of due_date is 400 naming the field the request moved', async () => {
    const { ws } = await setup();
    const task = await addTask(ws, {
      title: 'Build',
      due_date: '2026-05-14T07:00:00',
      end_date: '2026-05-15',
    });
    expectInvalid(await ws.api.patch(`/tasks/${task.id}`, { end_date: '2026-05-13' }), 'end_date');
    expectInvalid(
      await ws.api.patch(`/tasks/${task.id}`, { due_date: '2026-05-16T07:00:00' }),
      'due_date',
    );
    expect((await ws.api.get(`/tasks/${task.id}`)).body).toEqual(task);
    const both = await ws.api.patch(`/tasks/${task.id}`, {
      due_date: '2026-05-16T07:00:00',
      end_date: '2026-05-17',
    });
    expect(both.status, both.text).toBe(200);
  });
});
