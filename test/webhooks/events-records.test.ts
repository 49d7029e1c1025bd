import { describe, expect, test } from 'vitest';
import {
  advance,
  type Ctx,
  eventsOf,
  newJob,
  ok,
  one,
  recordOf,
  setup,
  subscribe,
  UUID,
} from './setup';

// Contact, task, appointment and note events as a receiver sees them: spec, Events (The 30
// events, Delivery body) and decisions.md, Events. Every body carries the record exactly as GET
// returns it; deleted snapshots carry only the identifying fields.

/** The four event fields a body of `event` carries. */
const eventFields = (c: Ctx, event: string) => ({
  event_type: event,
  event_id: expect.stringMatching(UUID),
  event_at: expect.any(String),
  event_workspace_id: c.ws.id,
});

const CONTACT = {
  name: 'Pat Doe',
  email: 'pat@example.com',
  phone: '615-555-0148',
  company: 'Doe Holdings',
  city: 'Nashville',
};

describe('contact events', () => {
  test('contact.created carries the contact exactly as GET /contacts/{id} returns it', async () => {
    const c = await setup();
    await subscribe(c, 'contact.created');
    const made = await ok(c.ws.api.post('/contacts', CONTACT), 201);
    await advance(c.h, 0);
    const body = one(c.rx, 'contact.created').json;
    expect(recordOf(body)).toEqual(await ok(c.ws.api.get(`/contacts/${made.id}`)));
    expect(body).toMatchObject({ ...eventFields(c, 'contact.created'), event_at: made.updated_at });
  });

  test('contact.updated lists the changed public fields, with the contact as GET returns it', async () => {
    const c = await setup();
    const made = await ok(c.ws.api.post('/contacts', CONTACT), 201);
    await subscribe(c, 'contact.updated');
    const patched = await ok(
      c.ws.api.patch(`/contacts/${made.id}`, { email: 'pat.doe@example.com' }),
    );
    await advance(c.h, 2);
    const body = one(c.rx, 'contact.updated').json;
    expect(body.changed_fields).toEqual(['email']);
    expect(recordOf(body, ['changed_fields'])).toEqual(
      await ok(c.ws.api.get(`/contacts/${made.id}`)),
    );
    expect(body.event_at).toBe(patched.updated_at);
  });

  test('a new first name lists first_name and the derived full_name', async () => {
    const c = await setup();
    const made = await ok(c.ws.api.post('/contacts', CONTACT), 201);
    await subscribe(c, 'contact.updated');
    await ok(c.ws.api.patch(`/contacts/${made.id}`, { first_name: 'Patricia' }));
    await advance(c.h, 2);
    const body = one(c.rx, 'contact.updated').json;
    expect([...body.changed_fields].sort()).toEqual(['first_name', 'full_name']);
    expect(body.full_name).toBe('Patricia Doe');
  });

  test('contact.deleted carries exactly id, object, deleted, first_name, last_name, email, phone', async () => {
    const c = await setup();
    const made = await ok(c.ws.api.post('/contacts', CONTACT), 201);
    await subscribe(c, 'contact.deleted');
    await ok(c.ws.api.delete(`/contacts/${made.id}`));
    await advance(c.h, 0);
    expect(one(c.rx, 'contact.deleted').json).toEqual({
      id: made.id,
      object: 'contact',
      deleted: true,
      first_name: 'Pat',
      last_name: 'Doe',
      email: 'pat@example.com',
      phone: '(615) 555-0148',
      ...eventFields(c, 'contact.deleted'),
    });
  });

  test('restoring a contact raises contact.created with the contact as GET returns it', async () => {
    const c = await setup();
    const made = await ok(c.ws.api.post('/contacts', CONTACT), 201);
    await subscribe(c, 'contact.created');
    await ok(c.ws.api.delete(`/contacts/${made.id}`));
    await advance(c.h, 0);
    expect(c.rx.received).toHaveLength(0);
    await ok(c.h.admin.post(`/contacts/${made.id}/restore`));
    await advance(c.h, 0);
    const body = one(c.rx, 'contact.created').json;
    expect(recordOf(body)).toEqual(await ok(c.ws.api.get(`/contacts/${made.id}`)));
  });
});

describe('task events', () => {
  test('task.created carries the task exactly as GET /tasks/{id} returns it', async () => {
    const c = await setup();
    const job = await newJob(c.ws);
    await subscribe(c, 'task.created');
    const task = await ok(
      c.ws.api.post('/tasks', {
        title: 'Call back',
        job_id: job.id,
        due_date: '2026-12-01T09:30:00',
        priority: 'high',
      }),
      201,
    );
    await advance(c.h, 0);
    const body = one(c.rx, 'task.created').json;
    expect(recordOf(body)).toEqual(await ok(c.ws.api.get(`/tasks/${task.id}`)));
    expect(body).toMatchObject({ ...eventFields(c, 'task.created'), event_at: task.updated_at });
  });

  test('task.updated lists the changed fields, with the task as GET returns it', async () => {
    const c = await setup();
    const task = await ok(c.ws.api.post('/tasks', { title: 'Call back' }), 201);
    await subscribe(c, 'task.updated');
    await ok(c.ws.api.patch(`/tasks/${task.id}`, { title: 'Call back Friday' }));
    await advance(c.h, 2);
    const body = one(c.rx, 'task.updated').json;
    expect(body.changed_fields).toEqual(['title']);
    expect(recordOf(body, ['changed_fields'])).toEqual(await ok(c.ws.api.get(`/tasks/${task.id}`)));
  });

  test('PATCH completed: true raises task.completed at once, and task.updated when its window closes', async () => {
    const c = await setup();
    const task = await ok(c.ws.api.post('/tasks', { title: 'Call back' }), 201);
    await subscribe(c, '*');
    await ok(c.ws.api.patch(`/tasks/${task.id}`, { completed: true }));
    await advance(c.h, 0);
    expect(eventsOf(c.rx)).toEqual(['task.completed']);
    const shown = await ok(c.ws.api.get(`/tasks/${task.id}`));
    expect(recordOf(c.rx.received[0]?.json)).toEqual(shown);
    expect(shown).toMatchObject({ completed: true, completed_at: expect.any(String) });
    await advance(c.h, 2);
    expect(eventsOf(c.rx)).toEqual(['task.completed', 'task.updated']);
    expect(c.rx.received[1]?.json.changed_fields).toEqual(
      expect.arrayContaining(['completed', 'completed_at']),
    );
  });

  test('completing a task already done raises no task.completed', async () => {
    const c = await setup();
    const task = await ok(c.ws.api.post('/tasks', { title: 'Call back' }), 201);
    await ok(c.ws.api.patch(`/tasks/${task.id}`, { completed: true }));
    await advance(c.h, 2);
    await subscribe(c, '*');
    await ok(c.ws.api.patch(`/tasks/${task.id}`, { completed: true }));
    await advance(c.h, 2);
    expect(c.rx.received).toHaveLength(0);
  });

  test('task.deleted carries exactly id, object, deleted, title and job_id', async () => {
    const c = await setup();
    const job = await newJob(c.ws);
    const task = await ok(
      c.ws.api.post('/tasks', { title: 'Call back', job_id: job.id, priority: 'high' }),
      201,
    );
    await subscribe(c, 'task.deleted');
    await ok(c.ws.api.delete(`/tasks/${task.id}`));
    await advance(c.h, 0);
    expect(one(c.rx, 'task.deleted').json).toEqual({
      id: task.id,
      object: 'task',
      deleted: true,
      title: 'Call back',
      job_id: job.id,
      ...eventFields(c, 'task.deleted'),
    });
  });
});

describe('task events when its contact is deleted', () => {
  test('a task on a live job keeps raising its events; the purge raises none', async () => {
    const c = await setup();
    const job = await newJob(c.ws);
    const contact = await ok(c.ws.api.post('/contacts', CONTACT), 201);
    const task = await ok(
      c.ws.api.post('/tasks', { title: 'Measure', job_id: job.id, contact_id: contact.id }),
      201,
    );
    await ok(c.ws.api.delete(`/contacts/${contact.id}`));
    await advance(c.h, 2);
    await subscribe(c, '*');
    await ok(c.ws.api.patch(`/tasks/${task.id}`, { completed: true }));
    await advance(c.h, 2);
    expect(eventsOf(c.rx)).toEqual(['task.completed', 'task.updated']);
    expect(recordOf(c.rx.received[0]?.json)).toEqual(await ok(c.ws.api.get(`/tasks/${task.id}`)));

    await advance(c.h, 30 * 24 * 3600 + 1);
    expect(eventsOf(c.rx)).toEqual(['task.completed', 'task.updated']);
  });
});

describe('appointment.created', () => {
  test('POST /appointments raises it (beside task.created) with the task as GET returns it', async () => {
    const c = await setup();
    await subscribe(c, '*');
    const appt = await ok(
      c.ws.api.post('/appointments', {
        title: 'Roof inspection',
        appointment_type: 'inspection',
        due_date: '2026-12-02T10:00:00',
      }),
      201,
    );
    await advance(c.h, 0);
    expect([...eventsOf(c.rx)].sort()).toEqual(['appointment.created', 'task.created']);
    const body = one(c.rx, 'appointment.created').json;
    expect(recordOf(body)).toEqual(await ok(c.ws.api.get(`/tasks/${appt.id}`)));
    expect(body).toMatchObject({ is_appointment: true, appointment_type: 'inspection' });
  });

  test('POST /tasks with appointment_type raises it', async () => {
    const c = await setup();
    await subscribe(c, 'appointment.created');
    const appt = await ok(
      c.ws.api.post('/tasks', { title: 'Meet adjuster', appointment_type: 'adjuster_meeting' }),
      201,
    );
    await advance(c.h, 0);
    expect(one(c.rx, 'appointment.created').json.id).toBe(appt.id);
  });

  test('a plain task raises no appointment.created', async () => {
    const c = await setup();
    await subscribe(c, 'appointment.created');
    await ok(c.ws.api.post('/tasks', { title: 'Call back' }), 201);
    await advance(c.h, 2);
    expect(c.rx.received).toHaveLength(0);
  });

  test('a task later given an appointment_type raises it, beside task.updated', async () => {
    const c = await setup();
    const task = await ok(c.ws.api.post('/tasks', { title: 'Build' }), 201);
    await subscribe(c, '*');
    await ok(c.ws.api.patch(`/tasks/${task.id}`, { appointment_type: 'build_day' }));
    await advance(c.h, 0);
    const body = one(c.rx, 'appointment.created').json;
    expect(recordOf(body)).toEqual(await ok(c.ws.api.get(`/tasks/${task.id}`)));
    expect(body).toMatchObject({ is_appointment: true, appointment_type: 'build_day' });
    await advance(c.h, 2);
    expect([...eventsOf(c.rx)].sort()).toEqual(['appointment.created', 'task.updated']);
    expect(one(c.rx, 'task.updated').json.changed_fields).toEqual(
      expect.arrayContaining(['appointment_type', 'is_appointment']),
    );
  });

  test('changing the type of an appointment raises no second appointment.created', async () => {
    const c = await setup();
    const appt = await ok(
      c.ws.api.post('/appointments', { title: 'Visit', appointment_type: 'inspection' }),
      201,
    );
    await subscribe(c, 'appointment.created');
    await ok(c.ws.api.patch(`/tasks/${appt.id}`, { appointment_type: 'build_day' }));
    await advance(c.h, 2);
    expect(c.rx.received).toHaveLength(0);
  });
});

describe('note.created', () => {
  test('POST /notes raises it with the note exactly as GET /notes/{id} returns it', async () => {
    const c = await setup();
    const job = await newJob(c.ws);
    await subscribe(c, 'note.created');
    const note = await ok(
      c.ws.api.post('/notes', { job_id: job.id, content: 'Ladder on site' }),
      201,
    );
    await advance(c.h, 0);
    const body = one(c.rx, 'note.created').json;
    expect(recordOf(body)).toEqual(await ok(c.ws.api.get(`/notes/${note.id}`)));
    expect(body).toMatchObject({ ...eventFields(c, 'note.created'), event_at: note.updated_at });
  });
});
