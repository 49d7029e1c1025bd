import { describe, expect, test } from 'vitest';
import { advance, BASE, clockNow, FULL, newJob, setup, UNKNOWN } from './setup';

// spec, Job: every field of the record, in the spec's order.
const JOB_FIELDS = [
  'id',
  'object',
  'job_number',
  'name',
  'job_type',
  'stage',
  'stage_label',
  'stage_is_completed',
  'stage_is_lost',
  'stage_entered_at',
  'pipeline_id',
  'pipeline_name',
  'address',
  'city',
  'state',
  'postal_code',
  'county',
  'homeowner_id',
  'homeowner',
  'adjuster_id',
  'adjuster',
  'secondary_contact_ids',
  'secondary_adjuster_ids',
  'assigned_to_id',
  'assigned_to_name',
  'assignee_ids',
  'assignee_names',
  'insurance_company',
  'claim_number',
  'policy_number',
  'date_of_loss',
  'damage_types',
  'tags',
  'lead_source',
  'priority',
  'mortgage_company',
  'financing_method',
  'rcv_amount',
  'acv_amount',
  'deductible',
  'supplements_amount',
  'estimated_amount',
  'final_amount',
  'total_job_value',
  'amount_received',
  'balance_due',
  'contract_date',
  'installation_date',
  'archived',
  'completed_at',
  'lost_at',
  'lost_reason',
  'created_at',
  'updated_at',
  'url',
  'portal_url',
];

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('the Job record', () => {
  test('a job made from name and address alone carries every Job field, unknown ones null or []', async () => {
    const { ws, insurance } = await setup();
    const job = await newJob(ws);
    expect(Object.keys(job).sort()).toEqual([...JOB_FIELDS].sort());
    expect(job).toMatchObject({
      object: 'job',
      name: BASE.name,
      address: BASE.address,
      job_type: 'insurance',
      stage: 'lead',
      stage_label: 'New Lead',
      stage_is_completed: false,
      stage_is_lost: false,
      pipeline_id: insurance.id,
      pipeline_name: 'Insurance Restoration',
      archived: false,
      amount_received: 0,
    });
    expect(job.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    for (const field of [
      'city',
      'state',
      'postal_code',
      'county',
      'homeowner_id',
      'homeowner',
      'adjuster_id',
      'adjuster',
      'assigned_to_id',
      'assigned_to_name',
      'insurance_company',
      'claim_number',
      'policy_number',
      'date_of_loss',
      'lead_source',
      'priority',
      'mortgage_company',
      'financing_method',
      'rcv_amount',
      'acv_amount',
      'deductible',
      'supplements_amount',
      'estimated_amount',
      'final_amount',
      'total_job_value',
      'balance_due',
      'contract_date',
      'installation_date',
      'completed_at',
      'lost_at',
      'lost_reason',
    ]) {
      expect(job[field], field).toBeNull();
    }
    for (const field of [
      'secondary_contact_ids',
      'secondary_adjuster_ids',
      'assignee_ids',
      'assignee_names',
      'damage_types',
      'tags',
    ]) {
      expect(job[field], field).toEqual([]);
    }
  });

  test('GET /jobs/{id} answers the job exactly as create did', async () => {
    const { ws } = await setup();
    const job = await newJob(ws, { city: 'Plano', tags: ['vip'] });
    const res = await ws.api.get(`/jobs/${job.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(job);
  });

  test('job numbers are J-1001, J-1002, … in creation order, counted per workspace', async () => {
    const { h, ws } = await setup('empty');
    const other = await h.workspace({ profile: 'empty' });
    const first = await newJob(ws);
    const second = await newJob(ws);
    const theirs = await newJob(other);
    expect([first.job_number, second.job_number]).toEqual(['J-1001', 'J-1002']);
    expect(theirs.job_number).toBe('J-1001');
  });

  test('a new job takes the number after every number already given, seeded jobs included', async () => {
    const { ws } = await setup('small');
    const seeded = (await ws.api.get('/jobs', { query: { archived: 'any', limit: 200 } })).body
      .data;
    const highest = Math.max(
      1000,
      ...seeded.map((j: { job_number: string }) => Number(j.job_number.slice(2))),
    );
    const job = await newJob(ws);
    expect(job.job_number).toBe(`J-${highest + 1}`);
  });

  test('created_at, updated_at and stage_entered_at are the clock time of creation (UTC, ms, Z)', async () => {
    const { h, ws } = await setup();
    await advance(h, 86_400 * 3); // the virtual clock, not the wall clock, dates records
    const before = await clockNow(h);
    const job = await newJob(ws);
    const after = await clockNow(h);
    expect(job.created_at).toMatch(ISO_MS);
    expect(job.created_at >= before && job.created_at <= after).toBe(true);
    expect(job.updated_at).toBe(job.created_at);
    expect(job.stage_entered_at).toBe(job.created_at);
  });

  test.each([
    ['an unknown job', false],
    ["another workspace's job", true],
  ])('GET /jobs/{id} of %s is 404 not_found', async (_case, foreign) => {
    const { h, ws } = await setup();
    const other = await h.workspace({ profile: 'empty' });
    const theirs = await newJob(other);
    const res = await ws.api.get(`/jobs/${foreign ? theirs.id : UNKNOWN}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
  });

  test('url opens the job in the app; portal_url is a page of its own for each job', async () => {
    const { ws } = await setup();
    const a = await newJob(ws);
    const b = await newJob(ws);
    expect(a.url).toBe(`http://localhost/jobs/${a.id}`);
    expect(new URL(a.portal_url).origin).toBe('http://localhost');
    expect(a.portal_url).not.toBe(b.portal_url);
    expect(a.portal_url).not.toBe(a.url);
  });
});

describe('fields sent on create are kept', () => {
  test('every plain field comes back as sent', async () => {
    const { ws } = await setup();
    const body = {
      ...FULL,
      job_type: 'retail',
      priority: 'urgent',
      financing_method: 'credit_card',
      rcv_amount: 18250.5,
      supplements_amount: 900.25,
      damage_types: ['hail', 'wind'],
    };
    const job = await newJob(ws, body);
    const { name, address, ...rest } = body;
    expect(job).toMatchObject({ name, address, ...rest });
  });

  test('name of 200 and address of 300 characters are accepted', async () => {
    const { ws } = await setup();
    const job = await newJob(ws, { name: 'n'.repeat(200), address: 'a'.repeat(300) });
    expect(job.name).toHaveLength(200);
    expect(job.address).toHaveLength(300);
  });

  test('a name of 200 characters with spaces around is trimmed first, then counted', async () => {
    const { ws } = await setup();
    // The document states the trimmed limit; svc forgives the spaces around it.
    const res = await ws.api.post(
      '/jobs',
      { name: ` ${'n'.repeat(200)}  `, address: '1 Main St' },
      { invalid: true },
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.name).toBe('n'.repeat(200));
  });

  test('tags and damage_types are trimmed, blanks dropped, repeats kept once', async () => {
    const { ws } = await setup();
    const job = await newJob(ws, {
      tags: ['vip', ' vip ', '', 'storm'],
      damage_types: ' hail, ,wind,hail',
    });
    expect(job.tags).toEqual(['vip', 'storm']);
    expect(job.damage_types).toEqual(['hail', 'wind']);
  });

  test.each([
    [{ job_name: 'Via alias', name: undefined }, 'name', 'Via alias'],
    [{ property_address: '9 Alias Way', address: undefined }, 'address', '9 Alias Way'],
    [{ zip: '75024' }, 'postal_code', '75024'],
  ])('the alias %j fills %s', async (body, field, value) => {
    const { ws } = await setup();
    const job = await newJob(ws, body);
    expect(job[field]).toBe(value);
  });

  test("when a field and its alias both come, the field's own name wins", async () => {
    const { ws } = await setup();
    const job = await newJob(ws, {
      name: 'Own name',
      job_name: 'Alias name',
      address: '1 Own St',
      property_address: '2 Alias St',
      postal_code: '75001',
      zip: '75002',
    });
    expect(job).toMatchObject({ name: 'Own name', address: '1 Own St', postal_code: '75001' });
  });

  test.each([
    ['TX', 'TX'],
    ['tx', 'TX'],
    ['Texas', 'TX'],
    ['new york', 'NY'],
    ['District of Columbia', 'DC'],
  ])('state %j is stored as the code %s', async (state, code) => {
    const { ws } = await setup();
    expect((await newJob(ws, { state })).state).toBe(code);
  });

  test.each([
    [{}, 'insurance'],
    [{ job_type: 'insurance' }, 'insurance'],
    [{ job_type: 'retail' }, 'retail'],
  ])('job_type of %j is %s (default insurance)', async (body, type) => {
    const { ws } = await setup();
    expect((await newJob(ws, body)).job_type).toBe(type);
  });

  test.each(['low', 'normal', 'high', 'urgent'])('priority %s is accepted', async (priority) => {
    const { ws } = await setup();
    expect((await newJob(ws, { priority })).priority).toBe(priority);
  });

  test.each(['cash', 'check', 'credit_card', 'financing', 'other'])(
    'financing_method %s is accepted',
    async (method) => {
      const { ws } = await setup();
      expect((await newJob(ws, { financing_method: method })).financing_method).toBe(method);
    },
  );

  test.each([
    [
      ['hail', 'wind'],
      ['hail', 'wind'],
    ],
    ['hail, wind', ['hail', 'wind']],
    ['hail,wind,', ['hail', 'wind']],
    ['hail', ['hail']],
    [[], []],
  ])('damage_types and tags take an array or a comma-separated string: %j', async (value, list) => {
    const { ws } = await setup();
    const job = await newJob(ws, { damage_types: value, tags: value });
    expect(job.damage_types).toEqual(list);
    expect(job.tags).toEqual(list);
  });

  test('money of 0 is accepted and kept as 0, not null', async () => {
    const { ws } = await setup();
    const job = await newJob(ws, { deductible: 0, acv_amount: 0 });
    expect(job.deductible).toBe(0);
    expect(job.acv_amount).toBe(0);
  });
});
