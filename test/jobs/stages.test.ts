import { describe, expect, test } from 'vitest';
import { advance, newJob, setup, UNKNOWN } from './setup';

describe('moving a job with PATCH stage', () => {
  test('a move sets stage, its label and board flags, and stage_entered_at to now', async () => {
    const { h, ws } = await setup();
    const job = await newJob(ws);
    const now = await advance(h, 3600);
    const res = await ws.api.patch(`/jobs/${job.id}`, { stage: 'inspected' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      stage: 'inspected',
      stage_label: 'Inspected',
      stage_is_completed: false,
      stage_is_lost: false,
      completed_at: null,
      lost_at: null,
    });
    expect(res.body.stage_entered_at >= now).toBe(true);
    expect(res.body.stage_entered_at).toBe(res.body.updated_at);
  });

  test('naming the stage the job is already in keeps stage_entered_at', async () => {
    const { h, ws } = await setup();
    const job = await newJob(ws, { stage: 'inspected' });
    await advance(h, 3600);
    const res = await ws.api.patch(`/jobs/${job.id}`, { stage: 'Inspected', city: 'Frisco' });
    expect(res.body.city).toBe('Frisco');
    expect(res.body.stage_entered_at).toBe(job.stage_entered_at);
  });

  test.each([
    ['approved', 'approved'],
    ['APPROVED', 'approved'],
    ['Contract Signed', 'contract_signed'],
    ['contract signed', 'contract_signed'],
    ['retail_scheduled', 'retail_scheduled'], // a key names one stage of the whole workspace
    ['Estimate Sent', 'retail_estimate_sent'], // a label only the other board has
  ])('stage %j moves an insurance job to %s', async (stage, key) => {
    const { ws } = await setup();
    const job = await newJob(ws);
    const res = await ws.api.patch(`/jobs/${job.id}`, { stage });
    expect(res.status).toBe(200);
    expect(res.body.stage).toBe(key);
  });

  test.each([
    ['New Lead', 'retail_lead'],
    ['new lead', 'retail_lead'],
    ['Contract Signed', 'retail_contract_signed'],
    ['completed', 'completed'], // a key is a key, whatever board the job is on
    ['lost', 'lost'],
  ])("a repeated label resolves on the job's own board first: %j → %s", async (stage, key) => {
    const { ws, retail } = await setup();
    const job = await newJob(ws, { pipeline_id: retail.id, stage: 'retail_estimate_sent' });
    const res = await ws.api.patch(`/jobs/${job.id}`, { stage });
    expect(res.body.stage).toBe(key);
  });

  test.each([
    ['Completed', 'retail_completed'],
    ['Lost', 'retail_lost'],
    ['Installed', 'retail_installed'],
  ])("the retail board's label %j moves a retail job to %s", async (stage, key) => {
    const { ws, retail } = await setup();
    const job = await newJob(ws, { pipeline_id: retail.id, stage: 'retail_estimate_sent' });
    const res = await ws.api.patch(`/jobs/${job.id}`, { stage });
    expect(res.body.stage).toBe(key);
  });

  test('a move to another board reports that board', async () => {
    const { ws, retail } = await setup();
    const job = await newJob(ws);
    const res = await ws.api.patch(`/jobs/${job.id}`, { stage: 'retail_installed' });
    expect(res.body).toMatchObject({ pipeline_id: retail.id, pipeline_name: 'Retail' });
  });
});

describe('the timeline', () => {
  const entries = (s: Awaited<ReturnType<typeof setup>>, jobId: string) =>
    [...s.h.rt.store.workspace(s.ws.id).values('timeline')].filter((e) => e.job_id === jobId);

  test('each move writes one timeline entry from the old stage to the new', async () => {
    const s = await setup();
    const job = await newJob(s.ws);
    await s.ws.api.patch(`/jobs/${job.id}`, { stage: 'inspected' });
    await s.ws.api.patch(`/jobs/${job.id}`, { stage: 'approved' });
    const moves = entries(s, job.id).map((e) => [e.from_stage_id, e.to_stage_id]);
    const id = (key: string) => s.insurance.stages.find((st) => st.key === key)?.id;
    expect(moves).toEqual([
      [id('lead'), id('inspected')],
      [id('inspected'), id('approved')],
    ]);
  });

  test('a PATCH that names the current stage writes no timeline entry', async () => {
    const s = await setup();
    const job = await newJob(s.ws, { stage: 'inspected' });
    await s.ws.api.patch(`/jobs/${job.id}`, { stage: 'Inspected', city: 'Frisco' });
    expect(entries(s, job.id)).toEqual([]);
  });
});

describe('completed_at and lost_at describe the column the job is in now', () => {
  test('into a completed column: completed_at is set, lost_at null', async () => {
    const { h, ws } = await setup();
    const job = await newJob(ws);
    const now = await advance(h, 60);
    const res = await ws.api.patch(`/jobs/${job.id}`, { stage: 'completed' });
    expect(res.body).toMatchObject({
      stage_is_completed: true,
      stage_is_lost: false,
      lost_at: null,
    });
    expect(res.body.completed_at >= now).toBe(true);
    expect(res.body.completed_at).toBe(res.body.stage_entered_at);
  });

  test('into a lost column: lost_at is set and completed_at cleared', async () => {
    const { h, ws } = await setup();
    const job = await newJob(ws, { stage: 'completed' });
    const now = await advance(h, 60);
    const res = await ws.api.patch(`/jobs/${job.id}`, { stage: 'lost', lost_reason: 'Price' });
    expect(res.body).toMatchObject({
      stage_is_lost: true,
      stage_is_completed: false,
      completed_at: null,
      lost_reason: 'Price',
    });
    expect(res.body.lost_at >= now).toBe(true);
  });

  test.each(['completed', 'lost'])(
    'moving back from %s to an open column clears both',
    async (from) => {
      const { h, ws } = await setup();
      const job = await newJob(ws, { stage: from });
      expect(job.completed_at ?? job.lost_at).not.toBeNull();
      await advance(h, 60);
      const res = await ws.api.patch(`/jobs/${job.id}`, { stage: 'installed' });
      expect(res.body).toMatchObject({ completed_at: null, lost_at: null, stage: 'installed' });
    },
  );

  test('the retail board has its own completed and lost columns', async () => {
    const { ws, retail } = await setup();
    const job = await newJob(ws, { pipeline_id: retail.id });
    const won = await ws.api.patch(`/jobs/${job.id}`, { stage: 'retail_completed' });
    expect(won.body.completed_at).not.toBeNull();
    const lost = await ws.api.patch(`/jobs/${job.id}`, { stage: 'retail_lost' });
    expect(lost.body).toMatchObject({ completed_at: null, stage_is_lost: true });
    expect(lost.body.lost_at).not.toBeNull();
  });
});

describe('refused moves leave the job unchanged', () => {
  test.each(['negotiating', 'Lead Stage', 'retail', ''])(
    'an unknown stage %j is 400 with field stage',
    async (stage) => {
      const { h, ws } = await setup();
      const job = await newJob(ws, { stage: 'inspected' });
      await advance(h, 60);
      const res = await ws.api.patch(`/jobs/${job.id}`, { stage, city: 'Frisco' });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'stage' });
      expect((await ws.api.get(`/jobs/${job.id}`)).body).toEqual(job);
    },
  );

  test('a stage that is not on the pipeline_id sent is 400 with field stage', async () => {
    const { ws, retail } = await setup();
    const job = await newJob(ws);
    const res = await ws.api.patch(`/jobs/${job.id}`, {
      pipeline_id: retail.id,
      stage: 'claim_filed',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'stage' });
    expect((await ws.api.get(`/jobs/${job.id}`)).body).toEqual(job);
  });

  test('an unknown pipeline_id is 400 with field pipeline_id', async () => {
    const { ws } = await setup();
    const job = await newJob(ws);
    const res = await ws.api.patch(`/jobs/${job.id}`, { pipeline_id: UNKNOWN });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'pipeline_id' });
    expect((await ws.api.get(`/jobs/${job.id}`)).body).toEqual(job);
  });
});

describe('pipeline_id on update', () => {
  test("pipeline_id alone moves the job to that pipeline's first stage", async () => {
    const { h, ws, retail } = await setup();
    const job = await newJob(ws, { stage: 'approved' });
    const now = await advance(h, 60);
    const res = await ws.api.patch(`/jobs/${job.id}`, { pipeline_id: retail.id });
    expect(res.body).toMatchObject({ stage: 'retail_lead', pipeline_id: retail.id });
    expect(res.body.stage_entered_at >= now).toBe(true);
  });

  test("the job's own pipeline_id alone does not move it", async () => {
    const { h, ws, insurance } = await setup();
    const job = await newJob(ws, { stage: 'approved' });
    await advance(h, 60);
    const res = await ws.api.patch(`/jobs/${job.id}`, { pipeline_id: insurance.id });
    expect(res.body).toEqual(job);
  });

  test('pipeline_id with a label picks that label on that pipeline', async () => {
    const { ws, retail } = await setup();
    const job = await newJob(ws);
    const res = await ws.api.patch(`/jobs/${job.id}`, {
      pipeline_id: retail.id,
      stage: 'installed',
    });
    expect(res.body.stage).toBe('retail_installed');
  });
});
