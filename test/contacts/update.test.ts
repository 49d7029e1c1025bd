import { describe, expect, test } from 'vitest';
import { type Harness, harness, type TestWorkspace } from '../support/harness';
import { FULL_CONTACT } from './fixtures';

const setup = async () => {
  const h = harness({ rateLimit: null });
  return { h, ws: await h.workspace() };
};

const tick = (h: Harness, seconds = 1) => h.admin.post('/clock', { advance_seconds: seconds });

const FULL = FULL_CONTACT;

async function contact(ws: TestWorkspace, body: Record<string, unknown> = FULL) {
  const res = await ws.api.post('/contacts', body);
  expect(res.status).toBe(201);
  return res.body;
}

describe('PATCH /contacts/{id}', () => {
  test('only the fields sent change; the answer is the contact as it now is', async () => {
    const { h, ws } = await setup();
    const before = await contact(ws);
    await tick(h);
    const res = await ws.api.patch(`/contacts/${before.id}`, { city: 'Brentwood' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...before,
      city: 'Brentwood',
      updated_at: expect.any(String),
    });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect(res.body.created_at).toBe(before.created_at);
    expect((await ws.api.get(`/contacts/${before.id}`)).body).toEqual(res.body);
  });

  test.each([
    'email',
    'phone',
    'company',
    'address',
    'city',
    'state',
    'postal_code',
    'notes',
    'claim_number',
    'adjuster_type',
    'adjuster_extension',
    'first_name',
    'last_name',
  ])('%s sent as null is cleared, the rest kept', async (field) => {
    const { ws } = await setup();
    const before = await contact(ws);
    const res = await ws.api.patch(`/contacts/${before.id}`, { [field]: null });
    expect(res.status).toBe(200);
    expect(res.body[field]).toBeNull();
    const { [field]: _, updated_at: __, full_name: ___, ...rest } = before;
    expect(res.body).toMatchObject(rest);
  });

  test('trades sent as null is cleared to []', async () => {
    const { ws } = await setup();
    const before = await contact(ws);
    const res = await ws.api.patch(`/contacts/${before.id}`, { trades: null });
    expect(res.body.trades).toEqual([]);
  });

  test('assigned_to sets and null clears the assignee', async () => {
    const { ws } = await setup();
    const user = (await ws.api.get('/users')).body.data[0];
    const before = await contact(ws);
    const set = await ws.api.patch(`/contacts/${before.id}`, { assigned_to: user.id });
    expect(set.body).toMatchObject({ assigned_to_id: user.id, assigned_to_name: user.name });
    const cleared = await ws.api.patch(`/contacts/${before.id}`, { assigned_to: null });
    expect(cleared.body).toMatchObject({ assigned_to_id: null, assigned_to_name: null });
  });

  test.each([
    ['Mary Ann Smith', 'Mary Ann', 'Smith'],
    ['Cher', 'Cher', null],
  ])('name %j re-splits into first %j and last %j', async (name, first, last) => {
    const { ws } = await setup();
    const before = await contact(ws);
    const res = await ws.api.patch(`/contacts/${before.id}`, { name });
    expect(res.body).toMatchObject({ first_name: first, last_name: last, full_name: name });
  });

  test('name is not split over a first_name sent beside it', async () => {
    const { ws } = await setup();
    const before = await contact(ws);
    const res = await ws.api.patch(`/contacts/${before.id}`, {
      name: 'Mary Smith',
      first_name: 'Maria',
      last_name: 'Smyth',
    });
    expect(res.body).toMatchObject({ first_name: 'Maria', last_name: 'Smyth' });
  });

  test.each([
    [{ first_name: 'Maria' }, 'Maria', 'Smith'],
    [{ last_name: 'Smyth' }, 'Mary', 'Smyth'],
    [{ first_name: null }, null, 'Smith'],
  ])(
    'name beside %j fills only the half not sent: first %j, last %j',
    async (sent, first, last) => {
      const { ws } = await setup();
      const before = await contact(ws);
      const res = await ws.api.patch(`/contacts/${before.id}`, { name: 'Mary Smith', ...sent });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ first_name: first, last_name: last });
      expect((await ws.api.get(`/contacts/${before.id}`)).body).toEqual(res.body);
    },
  );

  test('name null clears first and last name while something else identifies the contact', async () => {
    const { ws } = await setup();
    const before = await contact(ws);
    const res = await ws.api.patch(`/contacts/${before.id}`, { name: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ first_name: null, last_name: null, full_name: null });
  });

  test.each([
    ['+1 (615) 555-0199', '(615) 555-0199'],
    ['615.555.0199 ext 3', '(615) 555-0199 x3'],
    ['Tel: 615 555 0199 (cell)', '(615) 555-0199'],
    ['+44 20 7123 4567', '+44 20 7123 4567'],
    ['555-0199', '555-0199'],
  ])('phone %j is normalised on update too, to %j', async (phone, stored) => {
    const { ws } = await setup();
    const before = await contact(ws);
    const res = await ws.api.patch(`/contacts/${before.id}`, { phone });
    expect(res.status).toBe(200);
    expect(res.body.phone).toBe(stored);
  });

  test.each([[''], ['   ']])('email %j clears the email, as a blank phone does', async (email) => {
    const { ws } = await setup();
    const before = await contact(ws);
    const res = await ws.api.patch(`/contacts/${before.id}`, { email });
    expect(res.status, res.text).toBe(200);
    expect(res.body.email).toBeNull();
  });

  test('email is stored lower-case on update too', async () => {
    const { ws } = await setup();
    const before = await contact(ws);
    const res = await ws.api.patch(`/contacts/${before.id}`, { email: 'NEW@Example.com' });
    expect(res.body.email).toBe('new@example.com');
  });

  test('fields the API does not know are ignored on update', async () => {
    const { ws } = await setup();
    const before = await contact(ws);
    const res = await ws.api.patch(`/contacts/${before.id}`, { city: 'Brentwood', mood: 'happy' });
    expect(res.status).toBe(200);
    expect(res.body.city).toBe('Brentwood');
    expect(res.body).not.toHaveProperty('mood');
  });

  test("a job's PersonRef shows the homeowner as updated", async () => {
    const { ws } = await setup();
    const before = await contact(ws);
    const job = await ws.api.post('/jobs', {
      name: 'Roof',
      address: '1 Main St',
      homeowner_id: before.id,
    });
    await ws.api.patch(`/contacts/${before.id}`, {
      name: 'Mary Smith',
      email: 'mary@example.com',
      phone: '6155550100',
    });
    expect((await ws.api.get(`/jobs/${job.body.id}`)).body.homeowner).toEqual({
      id: before.id,
      name: 'Mary Smith',
      email: 'mary@example.com',
      phone: '(615) 555-0100',
    });
  });

  test('state by name is stored as its code on update too', async () => {
    const { ws } = await setup();
    const before = await contact(ws);
    const res = await ws.api.patch(`/contacts/${before.id}`, { state: 'Kentucky' });
    expect(res.body.state).toBe('KY');
  });
});

describe('PATCH /contacts/{id}: refused, nothing changed', () => {
  // decisions.md: at least one of a name, email, phone or company holds after a PATCH too
  test('clearing the last identifying field is 400 field name', async () => {
    const { ws } = await setup();
    const before = await contact(ws, { email: 'only@example.com', city: 'Franklin' });
    const res = await ws.api.patch(`/contacts/${before.id}`, { email: null });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'name' });
    expect((await ws.api.get(`/contacts/${before.id}`)).body).toEqual(before);
  });

  test('clearing every identifying field at once is 400 field name', async () => {
    const { ws } = await setup();
    const before = await contact(ws);
    const res = await ws.api.patch(`/contacts/${before.id}`, {
      name: null,
      email: null,
      phone: null,
      company: null,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'name' });
    expect((await ws.api.get(`/contacts/${before.id}`)).body).toEqual(before);
  });

  test.each([
    [{ phone: 6155550148 }, 'phone'],
    [{ phone: '6'.repeat(101) }, 'phone'],
    [{ email: 'nope' }, 'email'],
    [{ type: 'plumber' }, 'type'],
    // a contact always has a type: it cannot be cleared, as a job's job_type cannot
    [{ type: null }, 'type'],
    [{ type: '' }, 'type'],
    [{ state: 'Narnia' }, 'state'],
    [{ assigned_to: '00000000-0000-4000-8000-000000000000' }, 'assigned_to'],
    [{ sms_consent: true }, 'sms_consent'],
    [{ sms_consent: null }, 'sms_consent'],
  ])('%j is 400 naming %s', async (body, field) => {
    const { ws } = await setup();
    const before = await contact(ws);
    const res = await ws.api.patch(`/contacts/${before.id}`, body, { invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
    expect((await ws.api.get(`/contacts/${before.id}`)).body).toEqual(before);
  });

  test('an unknown contact is 404 not_found', async () => {
    const { ws } = await setup();
    const res = await ws.api.patch(`/contacts/${crypto.randomUUID()}`, { city: 'Franklin' });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test('a deleted contact is 404 not_found', async () => {
    const { ws } = await setup();
    const before = await contact(ws);
    await ws.api.delete(`/contacts/${before.id}`);
    const res = await ws.api.patch(`/contacts/${before.id}`, { city: 'Brentwood' });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test('a read-only key is 403 forbidden', async () => {
    const { ws } = await setup();
    const before = await contact(ws);
    const res = await ws.read.patch(`/contacts/${before.id}`, { city: 'Brentwood' });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect((await ws.api.get(`/contacts/${before.id}`)).body).toEqual(before);
  });
});
