// PATCH /jobs/{id}: only the fields sent change, null and "" clear a field. spec: JobUpdate,
// Conventions (PATCH); decisions.md, Jobs.
import { describe, expect, test } from 'vitest';
import type { Json } from '../support/harness';
import { advance, FULL, newContact, newJob, setup } from './setup';

/** Everything but updated_at (and the money figures derived from what changed). */
const stable = (job: Json) => {
  const { updated_at: _u, ...rest } = job;
  return rest;
};

describe('PATCH changes only the fields sent', () => {
  test('one field sent: that field changes, every other stays, updated_at moves to now', async () => {
    const { h, ws } = await setup();
    const job = await newJob(ws, FULL);
    const now = await advance(h, 60);
    const res = await ws.api.patch(`/jobs/${job.id}`, { city: 'Frisco' });
    expect(res.status).toBe(200);
    expect(stable(res.body)).toEqual({ ...stable(job), city: 'Frisco' });
    expect(res.body.updated_at >= now).toBe(true);
    expect((await ws.api.get(`/jobs/${job.id}`)).body).toEqual(res.body);
  });

  test('every updatable field can be changed at once', async () => {
    const { ws } = await setup();
    const job = await newJob(ws, FULL);
    const change = {
      name: 'Renamed',
      address: '9 New Rd',
      city: 'Allen',
      county: 'Dallas',
      state: 'OK',
      postal_code: '73301',
      job_type: 'retail',
      lead_source: 'Referral',
      insurance_company: 'Allstate',
      claim_number: 'CLM-99',
      policy_number: 'POL-2',
      mortgage_company: 'Second Bank',
      financing_method: 'financing',
      lost_reason: 'Went with a competitor',
      priority: 'low',
      rcv_amount: 1,
      acv_amount: 2,
      deductible: 3,
      supplements_amount: 4,
      estimated_amount: 5,
      final_amount: 6,
      date_of_loss: '2025-01-01',
      contract_date: '2025-01-02',
      installation_date: '2025-01-03',
      damage_types: ['wind'],
      tags: ['repeat', 'referral'],
      archived: true,
    };
    const res = await ws.api.patch(`/jobs/${job.id}`, change);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(change);
  });

  test.each([
    [{ job_name: 'Via alias' }, 'name', 'Via alias'],
    [{ property_address: '5 Alias Way' }, 'address', '5 Alias Way'],
    [{ zip: '73301' }, 'postal_code', '73301'],
    [{ state: 'oklahoma' }, 'state', 'OK'],
    [{ tags: 'a, b' }, 'tags', ['a', 'b']],
  ])('PATCH %j sets %s', async (body, field, value) => {
    const { ws } = await setup();
    const job = await newJob(ws, FULL);
    const res = await ws.api.patch(`/jobs/${job.id}`, body);
    expect(res.status).toBe(200);
    expect(res.body[field]).toEqual(value);
  });
});

// spec, Conventions: a field sent as null (or an empty string, for jobs) is cleared.
const CLEARABLE = [
  'city',
  'county',
  'state',
  'postal_code',
  'lead_source',
  'insurance_company',
  'claim_number',
  'policy_number',
  'mortgage_company',
  'date_of_loss',
  'contract_date',
  'installation_date',
  'priority',
  'financing_method',
];

test("when a field and its alias both come, the field's own name wins", async () => {
  const { ws } = await setup();
  const job = await newJob(ws, FULL);
  const res = await ws.api.patch(`/jobs/${job.id}`, {
    name: 'Own name',
    job_name: 'Alias name',
    address: '1 Own St',
    property_address: '2 Alias St',
    postal_code: '75001',
    zip: '75002',
  });
  expect(res.body).toMatchObject({ name: 'Own name', address: '1 Own St', postal_code: '75001' });
});

describe('null and "" clear a field', () => {
  test.each(CLEARABLE)('%s: null clears it', async (field) => {
    const { ws } = await setup();
    const job = await newJob(ws, FULL);
    expect(job[field]).not.toBeNull();
    const res = await ws.api.patch(`/jobs/${job.id}`, { [field]: null });
    expect(res.status).toBe(200);
    expect(res.body[field]).toBeNull();
  });

  test.each([
    'city',
    'county',
    'state',
    'postal_code',
    'lead_source',
    'insurance_company',
    'claim_number',
    'policy_number',
    'mortgage_company',
  ])('%s: "" clears it to null', async (field) => {
    const { ws } = await setup();
    const job = await newJob(ws, FULL);
    const res = await ws.api.patch(`/jobs/${job.id}`, { [field]: '' });
    expect(res.status).toBe(200);
    expect(res.body[field]).toBeNull();
  });

  test.each(['priority', 'financing_method', 'date_of_loss', 'contract_date', 'installation_date'])(
    '%s: "" clears it to null (enum and date fields too)',
    async (field) => {
      const { ws } = await setup();
      const job = await newJob(ws, FULL);
      const res = await ws.api.patch(`/jobs/${job.id}`, { [field]: '' });
      expect(res.status).toBe(200);
      expect(res.body[field]).toBeNull();
    },
  );

  test.each([
    'rcv_amount',
    'acv_amount',
    'deductible',
    'supplements_amount',
    'estimated_amount',
    'final_amount',
  ])('%s: null clears the amount', async (field) => {
    const { ws } = await setup();
    const job = await newJob(ws, FULL);
    const res = await ws.api.patch(`/jobs/${job.id}`, { [field]: null });
    expect(res.status).toBe(200);
    expect(res.body[field]).toBeNull();
  });

  test.each([
    ['damage_types', null],
    ['tags', null],
    ['damage_types', ''],
    ['tags', ''],
    ['tags', []],
  ])('%s sent as %j becomes []', async (field, value) => {
    const { ws } = await setup();
    const job = await newJob(ws, FULL);
    const res = await ws.api.patch(`/jobs/${job.id}`, { [field]: value });
    expect(res.status).toBe(200);
    expect(res.body[field]).toEqual([]);
  });

  test.each([null, ''])('lost_reason sent as %j is cleared', async (value) => {
    const { ws } = await setup();
    const job = await newJob(ws);
    await ws.api.patch(`/jobs/${job.id}`, { lost_reason: 'Price' });
    const res = await ws.api.patch(`/jobs/${job.id}`, { lost_reason: value });
    expect(res.body.lost_reason).toBeNull();
  });

  test('homeowner_id and adjuster_id sent as null drop the person', async () => {
    const { ws } = await setup();
    const owner = await newContact(ws);
    const adjuster = await newContact(ws, { name: 'Sam Ortiz', type: 'adjuster' });
    const job = await newJob(ws, { homeowner_id: owner.id, adjuster_id: adjuster.id });
    const res = await ws.api.patch(`/jobs/${job.id}`, { homeowner_id: null, adjuster_id: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      homeowner_id: null,
      homeowner: null,
      adjuster_id: null,
      adjuster: null,
    });
  });

  test('homeowner_id names a new homeowner', async () => {
    const { ws } = await setup();
    const first = await newContact(ws);
    const second = await newContact(ws, { name: 'Lee Park' });
    const job = await newJob(ws, { homeowner_id: first.id });
    const res = await ws.api.patch(`/jobs/${job.id}`, { homeowner_id: second.id });
    expect(res.body.homeowner).toMatchObject({ id: second.id, name: 'Lee Park' });
  });

  test.each([
    ['homeowner_id', 'homeowner'],
    ['adjuster_id', 'adjuster'],
    ['assigned_to', 'assigned_to_name'],
  ])('%s sent as "" drops the person', async (field, shown) => {
    const { ws, users } = await setup();
    const person = await newContact(ws);
    const job = await newJob(ws, {
      homeowner_id: person.id,
      adjuster_id: person.id,
      assigned_to: users[1]?.id,
    });
    expect(job[shown]).not.toBeNull();
    const res = await ws.api.patch(`/jobs/${job.id}`, { [field]: '' });
    expect(res.status).toBe(200);
    expect(res.body[shown]).toBeNull();
  });
});

// spec, JobUpdate: name and address "cannot be cleared"; the error names the spelling sent.
