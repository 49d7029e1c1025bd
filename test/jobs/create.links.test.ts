// POST /jobs: null for an optional field, the stage and pipeline a job starts in, the people on
// it, and its first note. spec: JobCreate, States and transitions; decisions.md, Jobs.
import { describe, expect, test } from 'vitest';
import { BASE, newContact, newJob, setup, stageOf } from './setup';

describe('null on create', () => {
  // spec, Conventions: a value the service does not have is null; a client sending a whole
  // record, its unknown fields null, creates with it.
  test('every optional field sent as null is taken as not sent: null, [] or its default', async () => {
    const { ws } = await setup();
    const nulls = Object.fromEntries(
      [
        'city',
        'county',
        'state',
        'postal_code',
        'zip',
        'homeowner_id',
        'adjuster_id',
        'assigned_to',
      ]
        .concat(['lead_source', 'priority', 'insurance_company', 'claim_number', 'policy_number'])
        .concat(['mortgage_company', 'date_of_loss', 'contract_date', 'installation_date'])
        .concat(['financing_method', 'rcv_amount', 'acv_amount', 'deductible'])
        .concat(['supplements_amount', 'estimated_amount', 'final_amount', 'damage_types', 'tags'])
        .concat(['job_type', 'stage', 'pipeline_id', 'notes'])
        .map((field) => [field, null]),
    );
    const job = await newJob(ws, nulls);
    expect(job).toMatchObject({
      job_type: 'insurance',
      stage: 'lead',
      city: null,
      homeowner_id: null,
      assigned_to_id: null,
      rcv_amount: null,
      tags: [],
      damage_types: [],
    });
    expect((await ws.api.get(`/jobs/${job.id}/notes`)).body.data).toEqual([]);
  });

  test('name and address are still required: null for either is 400 naming it', async () => {
    const { ws } = await setup();
    for (const field of ['name', 'address']) {
      const res = await ws.api.post('/jobs', { ...BASE, [field]: null }, { invalid: true });
      expect(res.status, field).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field });
    }
  });
});

describe('stage and pipeline on create', () => {
  test.each([
    ['claim_filed', 'claim_filed'],
    ['CLAIM_FILED', 'claim_filed'],
    ['Claim Filed', 'claim_filed'],
    ['claim filed', 'claim_filed'],
    ['  Claim Filed  ', 'claim_filed'],
    ['New Lead', 'lead'], // a repeated label resolves on the default pipeline
    ['retail_estimate_sent', 'retail_estimate_sent'],
    ['Estimate Sent', 'retail_estimate_sent'], // a label only the retail board has
  ])('stage %j puts the job in %s (key or label, any case)', async (stage, key) => {
    const { ws } = await setup();
    expect((await newJob(ws, { stage })).stage).toBe(key);
  });

  test("a retail job sent without a stage starts in the default pipeline's first stage", async () => {
    const { ws } = await setup();
    const job = await newJob(ws, { job_type: 'retail' });
    expect(job).toMatchObject({ job_type: 'retail', stage: 'lead' });
  });

  test('a stage on the retail board reports that board', async () => {
    const { ws, retail } = await setup();
    const job = await newJob(ws, { stage: 'retail_scheduled' });
    expect(job).toMatchObject({
      stage_label: 'Scheduled',
      pipeline_id: retail.id,
      pipeline_name: 'Retail',
    });
  });

  test('with no stage the job is in the first stage of the default pipeline', async () => {
    const { ws, insurance } = await setup();
    const job = await newJob(ws);
    expect(insurance.is_default).toBe(true);
    expect(job.stage).toBe(insurance.stages[0]?.key);
    expect(job.pipeline_id).toBe(insurance.id);
  });

  test("pipeline_id alone puts the job in that pipeline's first stage", async () => {
    const { ws, retail } = await setup();
    const job = await newJob(ws, { pipeline_id: retail.id });
    expect(job).toMatchObject({ stage: 'retail_lead', pipeline_id: retail.id });
  });

  test('with pipeline_id a repeated label resolves on that pipeline', async () => {
    const { ws, retail } = await setup();
    const job = await newJob(ws, { pipeline_id: retail.id, stage: 'new lead' });
    expect(job.stage).toBe('retail_lead');
  });

  test('created in a completed column, completed_at is set; in a lost one, lost_at', async () => {
    const { ws, retail } = await setup();
    const won = await newJob(ws, { stage: 'completed' });
    expect(won).toMatchObject({ stage_is_completed: true, stage_is_lost: false, lost_at: null });
    expect(won.completed_at).toBe(won.created_at);
    const lost = await newJob(ws, { pipeline_id: retail.id, stage: 'Lost' });
    expect(lost).toMatchObject({ stage: 'retail_lost', stage_is_lost: true, completed_at: null });
    expect(lost.lost_at).toBe(lost.created_at);
    expect(stageOf(retail, 'retail_lost').is_lost).toBe(true);
  });
});

describe('people on create', () => {
  test('homeowner_id and adjuster_id show as PersonRefs {id, name, email, phone}', async () => {
    const { ws } = await setup();
    const owner = await newContact(ws, {
      name: 'Dana Whitfield',
      email: 'Dana@Example.com',
      phone: '615-555-0148',
    });
    const adjuster = await newContact(ws, { name: 'Sam Ortiz', type: 'adjuster' });
    const job = await newJob(ws, { homeowner_id: owner.id, adjuster_id: adjuster.id });
    expect(job.homeowner_id).toBe(owner.id);
    expect(job.homeowner).toEqual({
      id: owner.id,
      name: 'Dana Whitfield',
      email: 'dana@example.com',
      phone: '(615) 555-0148',
    });
    expect(job.adjuster_id).toBe(adjuster.id);
    expect(job.adjuster).toEqual({ id: adjuster.id, name: 'Sam Ortiz', email: null, phone: null });
  });

  test('assigned_to makes that teammate the primary assignee, named', async () => {
    const { ws, users } = await setup();
    const rep = users[2];
    const job = await newJob(ws, { assigned_to: rep?.id });
    expect(job).toMatchObject({
      assigned_to_id: rep?.id,
      assigned_to_name: rep?.name,
      assignee_ids: [rep?.id],
      assignee_names: [rep?.name],
    });
  });
});

describe('notes on create', () => {
  test('notes becomes the first note of the job, written through the API (author_id null)', async () => {
    const { ws } = await setup();
    const job = await newJob(ws, { notes: 'Gate code 4412' });
    const res = await ws.api.get(`/jobs/${job.id}/notes`);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({
      object: 'note',
      job_id: job.id,
      content: 'Gate code 4412',
      author_id: null,
      author_name: null,
    });
  });

  test('a job created without notes has no note', async () => {
    const { ws } = await setup();
    const job = await newJob(ws);
    expect((await ws.api.get(`/jobs/${job.id}/notes`)).body.data).toEqual([]);
  });
});
