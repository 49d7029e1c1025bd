import { describe, expect, test } from 'vitest';
import { addContact, addJob, allIds, expectInvalid, setup } from './setup';

describe('title', () => {
  test.each([
    ['missing', {}],
    ['empty', { title: '' }],
    ['white space only', { title: '   ' }],
    ['null', { title: null }],
    ['missing, with other fields', { due_date: '2026-05-14', priority: 'high' }],
  ])('a task with its title %s is 400 field title', async (_, body) => {
    const { ws } = await setup();
    const res = await ws.api.post('/tasks', body, { invalid: true });
    expectInvalid(res, 'title');
  });
});

describe('POST /appointments', () => {
  test.each([
    ['missing', { title: 'Meet the adjuster' }],
    ['null', { title: 'Meet the adjuster', appointment_type: null }],
    ['not a type', { title: 'Meet the adjuster', appointment_type: 'site_visit' }],
  ])('appointment_type %s is 400 field appointment_type', async (_, body) => {
    const { ws } = await setup();
    const res = await ws.api.post('/appointments', body, { invalid: true });
    expectInvalid(res, 'appointment_type');
  });
});

describe('field values', () => {
  test.each([
    ['priority', 'urgent'],
    ['priority', 'HIGH'],
    ['appointment_type', 'site_visit'],
    ['outcome', 'done'],
    ['customer_reminder', 'phone'],
    ['duration_minutes', 1.5],
    ['duration_minutes', '30'],
    ['reminder_minutes', 1.5],
    ['reminder_minutes', '15'],
    ['end_date', '2026-02-30'],
    ['end_date', '2026-05-14T00:00:00'],
    ['end_date', 'next week'],
    ['completed', 'yes'],
    ['description', 42],
    ['job_id', 'not-a-uuid'],
    ['contact_id', 'not-a-uuid'],
    ['assigned_to', 'not-a-uuid'],
  ])('%s = %j is 400 naming it', async (field, value) => {
    const { ws } = await setup();
    const res = await ws.api.post('/tasks', { title: 't', [field]: value }, { invalid: true });
    expectInvalid(res, field);
  });

  test('end_date before the day of due_date is 400 field end_date', async () => {
    const { ws } = await setup();
    const res = await ws.api.post('/tasks', {
      title: 'Build',
      due_date: '2026-05-14T07:00:00',
      end_date: '2026-05-13',
    });
    expectInvalid(res, 'end_date');
  });

  test.each([
    ['the same day as due_date, earlier than its time', '2026-05-14T23:30:00', '2026-05-14'],
    ['a later day', '2026-05-14T07:00:00', '2026-05-16'],
    ['with no due_date at all', undefined, '2026-01-01'],
  ])('end_date on %s is accepted', async (_, due_date, end_date) => {
    const { ws } = await setup();
    const res = await ws.api.post('/tasks', { title: 'Build', due_date, end_date });
    expect(res.status, res.text).toBe(201);
    expect(res.body.end_date).toBe(end_date);
  });
});

describe('references must belong to the workspace', () => {
  test.each(['job_id', 'contact_id', 'assigned_to'])(
    'an unknown %s is 400 naming it',
    async (field) => {
      const { ws } = await setup();
      const res = await ws.api.post('/tasks', { title: 't', [field]: crypto.randomUUID() });
      expectInvalid(res, field);
    },
  );

  test.each(['job_id', 'contact_id', 'assigned_to'])(
    "another workspace's %s is 400 naming it",
    async (field) => {
      const { h, ws } = await setup();
      const other = await h.workspace({ profile: 'empty' });
      const foreign =
        field === 'job_id'
          ? await addJob(other)
          : field === 'contact_id'
            ? await addContact(other)
            : (await other.api.get('/users')).body.data[0].id;
      const res = await ws.api.post('/tasks', { title: 't', [field]: foreign });
      expectInvalid(res, field);
    },
  );

  test('a deleted job is 400 field job_id', async () => {
    const { ws } = await setup();
    const jobId = await addJob(ws);
    expect((await ws.api.delete(`/jobs/${jobId}`)).status).toBe(200);
    const res = await ws.api.post('/tasks', { title: 't', job_id: jobId });
    expectInvalid(res, 'job_id');
  });

  test('a deleted contact is 400 field contact_id', async () => {
    const { ws } = await setup();
    const contactId = await addContact(ws);
    expect((await ws.api.delete(`/contacts/${contactId}`)).status).toBe(200);
    const res = await ws.api.post('/tasks', { title: 't', contact_id: contactId });
    expectInvalid(res, 'contact_id');
  });
});

describe('a refused create writes nothing', () => {
  test('no task appears after any 400 on POST /tasks or /appointments', async () => {
    const { ws } = await setup();
    const jobId = await addJob(ws);
    await ws.api.delete(`/jobs/${jobId}`);
    const before = await allIds(ws, '/tasks');
    const appointments = await allIds(ws, '/appointments');
    const refused: [string, Record<string, unknown>][] = [
      ['/tasks', { description: 'no title' }],
      ['/tasks', { title: 't', priority: 'urgent' }],
      ['/tasks', { title: 't', job_id: jobId }],
      ['/tasks', { title: 't', assigned_to: crypto.randomUUID() }],
      ['/tasks', { title: 't', due_date: 'tomorrow' }],
      ['/tasks', { title: 't', due_date: '2026-05-14', end_date: '2026-05-01' }],
      ['/appointments', { title: 'no type' }],
    ];
    for (const [path, body] of refused) {
      const res = await ws.api.post(path, body, { invalid: true });
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
    }
    expect(await allIds(ws, '/tasks')).toEqual(before);
    expect(await allIds(ws, '/appointments')).toEqual(appointments);
  });
});
