import { describe, expect, test } from 'vitest';
import { addContact, addJob, addTask, advance, setup, users } from './setup';

describe('POST /tasks', () => {
  test('a task with only a title has every other Task field null, completed false, and a url', async () => {
    const { ws } = await setup();
    const res = await ws.api.post('/tasks', { title: 'Call the adjuster' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
      object: 'task',
      title: 'Call the adjuster',
      description: null,
      due_date: null,
      end_date: null,
      duration_minutes: null,
      priority: null,
      completed: false,
      completed_at: null,
      is_appointment: false,
      appointment_type: null,
      outcome: null,
      customer_reminder: null,
      reminder_minutes: null,
      job_id: null,
      contact_id: null,
      assigned_to_id: null,
      assigned_to_name: null,
      created_at: expect.any(String),
      updated_at: res.body.created_at,
      url: expect.stringContaining(res.body.id),
    });
    expect(() => new URL(res.body.url)).not.toThrow();
  });

  // spec, Conventions: a value the service does not have is null.
  test('every optional field sent as null is taken as not sent: null, or false for completed', async () => {
    const { ws } = await setup();
    const fields = ['description', 'due_date', 'end_date', 'duration_minutes', 'priority']
      .concat(['appointment_type', 'outcome', 'customer_reminder', 'reminder_minutes'])
      .concat(['job_id', 'contact_id', 'assigned_to', 'completed']);
    const body = { title: 'Call', ...Object.fromEntries(fields.map((f) => [f, null])) };
    const res = await ws.api.post('/tasks', body);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Call',
      description: null,
      due_date: null,
      completed: false,
      is_appointment: false,
      job_id: null,
      assigned_to_id: null,
    });
  });

  test('POST /appointments still needs appointment_type: null is 400 naming it', async () => {
    const { ws } = await setup();
    const res = await ws.api.post(
      '/appointments',
      { title: 'Visit', appointment_type: null },
      { invalid: true },
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'appointment_type' });
  });

  test('created_at is the clock now, as a UTC timestamp with milliseconds', async () => {
    const { h, ws } = await setup();
    const now = await advance(h, 7 * 24 * 3600);
    const task = await addTask(ws, { title: 'Order shingles' });
    expect(task.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const ms = Date.parse(task.created_at) - Date.parse(now);
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(ms).toBeLessThan(60_000);
  });

  test('every field sent is stored and returned by GET', async () => {
    const { ws } = await setup();
    const jobId = await addJob(ws);
    const contactId = await addContact(ws);
    const [user] = await users(ws);
    const body = {
      title: 'Tear-off',
      description: 'Two layers on the north slope',
      due_date: '2026-05-14T07:00:00',
      end_date: '2026-05-16',
      duration_minutes: 480,
      priority: 'high',
      appointment_type: 'build_day',
      outcome: 'rescheduled',
      customer_reminder: 'both',
      reminder_minutes: 60,
      job_id: jobId,
      contact_id: contactId,
      assigned_to: user?.id,
    };
    const task = await addTask(ws, body);
    const { assigned_to, ...stored } = body;
    expect(task).toMatchObject({
      ...stored,
      is_appointment: true,
      assigned_to_id: assigned_to,
      assigned_to_name: user?.name,
    });
    const got = await ws.api.get(`/tasks/${task.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(task);
  });

  test.each(['low', 'normal', 'high'])('priority %s is accepted', async (priority) => {
    const { ws } = await setup();
    expect(await addTask(ws, { title: 't', priority })).toMatchObject({ priority });
  });

  test.each(['completed', 'no_show', 'rescheduled', 'canceled'])(
    'outcome %s is accepted',
    async (outcome) => {
      const { ws } = await setup();
      expect(await addTask(ws, { title: 't', outcome })).toMatchObject({ outcome });
    },
  );

  test.each(['none', 'sms', 'email', 'both'])(
    'customer_reminder %s is accepted',
    async (customer_reminder) => {
      const { ws } = await setup();
      expect(await addTask(ws, { title: 't', customer_reminder })).toMatchObject({
        customer_reminder,
      });
    },
  );

  test('completed: true on create marks it done and stamps completed_at with the clock', async () => {
    const { h, ws } = await setup();
    const now = await advance(h, 3600);
    const task = await addTask(ws, { title: 'Already done', completed: true });
    expect(task.completed).toBe(true);
    expect(task.completed_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const ms = Date.parse(task.completed_at) - Date.parse(now);
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(ms).toBeLessThan(60_000);
  });

  test('completed: false on create leaves completed_at null', async () => {
    const { ws } = await setup();
    expect(await addTask(ws, { title: 't', completed: false })).toMatchObject({
      completed: false,
      completed_at: null,
    });
  });

  // spec, Conventions: a value the service does not have is null, not an empty string.
  test.each([[''], ['  \n\t ']])('a description %j is stored as null', async (description) => {
    const { ws } = await setup();
    expect((await addTask(ws, { title: 't', description })).description).toBeNull();
  });

  test('white space around a description is dropped', async () => {
    const { ws } = await setup();
    const task = await addTask(ws, { title: 't', description: '  Two layers\n' });
    expect(task.description).toBe('Two layers');
  });

  test('white space around a title is dropped', async () => {
    const { ws } = await setup();
    expect((await addTask(ws, { title: '  Measure roof  ' })).title).toBe('Measure roof');
  });
});

describe('appointments', () => {
  test.each([
    ['inspection', 'Inspection'],
    ['adjuster_meeting', 'Adjuster meeting'],
    ['build_day', 'Build day'],
  ])('appointment_type %s on POST /tasks makes an appointment titled %j', async (type, title) => {
    const { ws } = await setup();
    const task = await addTask(ws, { appointment_type: type });
    expect(task).toMatchObject({ object: 'task', is_appointment: true, appointment_type: type });
    expect(task.title).toBe(title);
  });

  test.each([
    ['inspection', 'Inspection'],
    ['adjuster_meeting', 'Adjuster meeting'],
    ['build_day', 'Build day'],
  ])('POST /appointments with %s and no title is titled %j', async (type, title) => {
    const { ws } = await setup();
    const task = await addTask(ws, { appointment_type: type }, '/appointments');
    expect(task).toMatchObject({ is_appointment: true, appointment_type: type, title });
  });

  test('an appointment sent with an empty title is titled by its type', async () => {
    const { ws } = await setup();
    const task = await addTask(ws, { title: '  ', appointment_type: 'inspection' });
    expect(task.title).toBe('Inspection');
  });

  test('an appointment keeps the title it was sent', async () => {
    const { ws } = await setup();
    const task = await addTask(
      ws,
      { title: 'Meet State Farm adjuster', appointment_type: 'adjuster_meeting' },
      '/appointments',
    );
    expect(task).toMatchObject({ title: 'Meet State Farm adjuster', is_appointment: true });
  });

  test('a task without appointment_type is not an appointment', async () => {
    const { ws } = await setup();
    const task = await addTask(ws, { title: 'Send invoice', due_date: '2026-05-14T09:00:00' });
    expect(task).toMatchObject({ is_appointment: false, appointment_type: null });
  });
});

describe('references', () => {
  test('job_id, contact_id and assigned_to of this workspace are linked, with the assignee name', async () => {
    const { ws } = await setup();
    const jobId = await addJob(ws);
    const contactId = await addContact(ws);
    const [first] = await users(ws);
    const task = await addTask(ws, {
      title: 't',
      job_id: jobId,
      contact_id: contactId,
      assigned_to: first?.id,
    });
    expect(task).toMatchObject({
      job_id: jobId,
      contact_id: contactId,
      assigned_to_id: first?.id,
      assigned_to_name: first?.name,
    });
  });
});
