import { describe, expect, test } from 'vitest';
import type { Json } from '../support/harness';
import {
  advance,
  type Ctx,
  createWebhook,
  eventsOf,
  setup as hookSetup,
  one,
  recordOf,
  subscribe,
} from '../webhooks/setup';
import { DALLAS, expectError, fresh, newPin, ok, pinOf, UNKNOWN, usersOf } from './setup';

// POST /__admin/pins/{id}/convert: DESIGN.md, control API (the door becomes a job: 201 the job;
// the pin's job_id is set); decisions.md, Pins (through the contacts and jobs services, in one
// transaction: the pin's homeowner a contact, the rep who knocked its assignee, lead source Door
// knock, the pin's notes its first note; pin_type becomes job; converting again is 409; a pin
// without a street address is 409; a deleted job's id is hidden from the pin until restored).

const DOOR = {
  ...DALLAS,
  city: 'Dallas',
  knock_result: 'appointment_scheduled',
  homeowner_name: 'Dana Whitfield',
  phone: '214-555-0148',
  email: 'dana@example.com',
  notes: 'Hail hits on the north slope',
};

describe('the door becomes a job', () => {
  test('201 with the job as GET /v1/jobs/{id} shows it, made from the pin', async () => {
    const { h, ws } = await fresh('small');
    const rep = (await usersOf(ws)).find((u) => u.role === 'sales_rep');
    const pin = await newPin(ws, { ...DOOR, created_by: rep.id });
    const res = await h.admin.post(`/pins/${pin.id}/convert`);
    expect(res.status, res.text).toBe(201);
    const job = res.body;
    expect(job).toEqual(await ok(ws.api.get(`/jobs/${job.id}`)));
    expect(job).toMatchObject({
      object: 'job',
      name: 'Dana Whitfield',
      address: '1420 Elm Street',
      city: 'Dallas',
      state: 'TX',
      postal_code: '75201',
      job_type: 'insurance',
      lead_source: 'Door knock',
      assigned_to_id: rep.id,
      assigned_to_name: rep.name,
      homeowner: {
        id: expect.any(String),
        name: 'Dana Whitfield',
        email: 'dana@example.com',
        phone: '(214) 555-0148',
      },
    });
    const homeowner = await ok(ws.api.get(`/contacts/${job.homeowner_id}`));
    expect(homeowner).toMatchObject({
      type: 'homeowner',
      first_name: 'Dana',
      last_name: 'Whitfield',
      address: '1420 Elm Street',
      city: 'Dallas',
      state: 'TX',
      postal_code: '75201',
      assigned_to_id: rep.id,
    });
    const notes = await ok(ws.api.get(`/jobs/${job.id}/notes`));
    expect(notes.data.map((n: Json) => n.content)).toEqual(['Hail hits on the north slope']);
  });

  test("the pin's job_id is set and its pin_type is job; its result and rep stay", async () => {
    const { h, ws } = await fresh();
    const pin = await newPin(ws, DOOR);
    const job = await ok(h.admin.post(`/pins/${pin.id}/convert`), 201);
    const after = await pinOf(ws, pin.id);
    expect(after).toEqual({
      ...pin,
      job_id: job.id,
      pin_type: 'job',
      updated_at: job.created_at,
    });
  });

  test('a pin with no name, phone or email makes a job with no homeowner, named by its address', async () => {
    const { h, ws } = await fresh();
    const pin = await newPin(ws, DALLAS);
    const job = await ok(h.admin.post(`/pins/${pin.id}/convert`), 201);
    expect(job).toMatchObject({ name: '1420 Elm Street', homeowner_id: null, homeowner: null });
    expect((await ok(ws.api.get('/contacts'))).data).toEqual([]);
    expect((await ok(ws.api.get(`/jobs/${job.id}/notes`))).data).toEqual([]);
  });

  test('links in the answer are on the address the control API was called on', async () => {
    const { h, ws } = await fresh();
    const pin = await newPin(ws, DOOR);
    const res = await h.admin.post(`/pins/${pin.id}/convert`, undefined, {
      origin: 'http://svc.test:4010',
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.url).toBe(`http://svc.test:4010/jobs/${res.body.id}`);
  });
});

describe('what a conversion refuses', () => {
  test('converting again is 409 conflict, and makes no second job', async () => {
    const { h, ws } = await fresh();
    const pin = await newPin(ws, DOOR);
    await ok(h.admin.post(`/pins/${pin.id}/convert`), 201);
    const again = await h.admin.post(`/pins/${pin.id}/convert`);
    expectError(again, 409, 'conflict');
    expect((await ok(ws.api.get('/jobs'))).data).toHaveLength(1);
    expect((await ok(ws.api.get('/contacts'))).data).toHaveLength(1);
  });

  test('a pin with no street address is 409 naming address, and nothing is made', async () => {
    const { h, ws } = await fresh();
    const pin = await newPin(ws, { latitude: 32.79, longitude: -96.8, homeowner_name: 'Ann Lee' });
    expectError(await h.admin.post(`/pins/${pin.id}/convert`), 409, 'conflict', 'address');
    expect((await ok(ws.api.get('/jobs'))).data).toEqual([]);
    expect((await ok(ws.api.get('/contacts'))).data).toEqual([]);
    expect(await pinOf(ws, pin.id)).toEqual(pin);
    // Given an address, it converts.
    await ok(ws.api.patch(`/pins/${pin.id}`, { address: '3 Pine Ct' }));
    expect((await ok(h.admin.post(`/pins/${pin.id}/convert`), 201)).address).toBe('3 Pine Ct');
  });

  test('an unknown pin, or a deleted one, is 404', async () => {
    const { h, ws } = await fresh();
    const pin = await newPin(ws);
    await ok(ws.api.delete(`/pins/${pin.id}`));
    for (const id of [UNKNOWN, pin.id, 'nope']) {
      expectError(await h.admin.post(`/pins/${id}/convert`), 404, 'not_found');
    }
  });
});

describe('a pin whose job is deleted', () => {
  test('shows no job_id while the job is deleted, its id again once restored; no second conversion', async () => {
    const { h, ws } = await fresh();
    const pin = await newPin(ws, DOOR);
    const job = await ok(h.admin.post(`/pins/${pin.id}/convert`), 201);
    await ok(ws.api.delete(`/jobs/${job.id}`));
    expect((await pinOf(ws, pin.id)).job_id).toBeNull();
    expectError(await h.admin.post(`/pins/${pin.id}/convert`), 409, 'conflict');
    await ok(h.admin.post(`/jobs/${job.id}/restore`));
    expect((await pinOf(ws, pin.id)).job_id).toBe(job.id);
  });
});

describe('a pin whose job is gone for good', () => {
  test('30 days after the job was deleted it is purged: the door can become a job again', async () => {
    const { h, ws } = await fresh();
    const pin = await newPin(ws, DOOR);
    const first = await ok(h.admin.post(`/pins/${pin.id}/convert`), 201);
    await ok(ws.api.delete(`/jobs/${first.id}`));
    await ok(h.admin.post('/clock', { advance_seconds: 31 * 24 * 3600 }));
    expectError(await h.admin.post(`/jobs/${first.id}/restore`), 404, 'not_found');
    const second = await ok(h.admin.post(`/pins/${pin.id}/convert`), 201);
    expect(second.id).not.toBe(first.id);
    expect((await pinOf(ws, pin.id)).job_id).toBe(second.id);
  });
});

describe('the pin of a job', () => {
  test('stays pin_type job: another type is 400 naming pin_type; job sent back is taken', async () => {
    const { h, ws } = await fresh();
    const pin = await newPin(ws, DOOR);
    await ok(h.admin.post(`/pins/${pin.id}/convert`), 201);
    const res = await ws.api.patch(`/pins/${pin.id}`, { pin_type: 'knock' });
    expectError(res, 400, 'invalid_request', 'pin_type');
    const after = await ok(ws.api.patch(`/pins/${pin.id}`, { pin_type: 'job', notes: 'Signed' }));
    expect(after).toMatchObject({ pin_type: 'job', notes: 'Signed' });
  });

  test('pin_type job cannot be set by PATCH: 400 naming pin_type', async () => {
    const { ws } = await fresh();
    const pin = await newPin(ws, DOOR);
    const res = await ws.api.patch(`/pins/${pin.id}`, { pin_type: 'job' });
    expectError(res, 400, 'invalid_request', 'pin_type');
  });
});

describe('events of a conversion', () => {
  const convertWith = async (c: Ctx, event: string) => {
    const pin = await ok(c.ws.api.post('/pins', DOOR), 201);
    await subscribe(c, event);
    const job = await ok(c.h.admin.post(`/pins/${pin.id}/convert`), 201);
    await advance(c.h, 0);
    return { pin, job };
  };

  test('job.created fires, carrying the job as GET returns it', async () => {
    const c = await hookSetup();
    const { job } = await convertWith(c, 'job.created');
    const body = one(c.rx, 'job.created').json;
    expect(recordOf(body)).toEqual(await ok(c.ws.api.get(`/jobs/${job.id}`)));
  });

  test('contact.created fires for the homeowner', async () => {
    const c = await hookSetup();
    const { job } = await convertWith(c, 'contact.created');
    expect(one(c.rx, 'contact.created').json.id).toBe(job.homeowner_id);
  });

  test("job.assigned fires for the rep who knocked; note.created for the pin's notes", async () => {
    const c = await hookSetup();
    await createWebhook(c.ws.api, {
      events: ['job.assigned', 'note.created'],
      target_url: c.rx.url,
    });
    const pin = await ok(c.ws.api.post('/pins', DOOR), 201);
    const job = await ok(c.h.admin.post(`/pins/${pin.id}/convert`), 201);
    await advance(c.h, 0);
    expect(one(c.rx, 'job.assigned').json).toMatchObject({
      id: job.id,
      assigned_to_id: pin.created_by_id,
    });
    expect(one(c.rx, 'note.created').json).toMatchObject({ job_id: job.id, content: DOOR.notes });
  });

  test('no pin event: the result did not move', async () => {
    const c = await hookSetup();
    await convertWith(c, 'pin.result_changed');
    expect(eventsOf(c.rx)).toEqual([]);
  });
});
