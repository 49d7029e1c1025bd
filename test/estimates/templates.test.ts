// Estimate templates: spec, Estimates (GET /estimate_templates: "most recently changed first",
// limit, not paged; POST /estimates with template_id: "an exact copy with smart fields filled from
// the job") and EstimateTemplate; decisions.md, Lists (has_more false, next_cursor null) and
// Estimates (a title segment whose smart field the job lacks is left out; title in the body wins).
import { describe, expect, test } from 'vitest';
import {
  app,
  expect400,
  INSURANCE_TEMPLATE,
  ISO,
  newEstimate,
  newJob,
  ok,
  RETAIL_TEMPLATE,
  setup,
  templateId,
} from './setup';

describe('GET /estimate_templates', () => {
  test("the empty profile's two templates, most recently changed first, not paged", async () => {
    const ws = await app().workspace();
    const res = await ws.api.get('/estimate_templates');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(res.body.data.map((t: { name: string }) => t.name).sort()).toEqual(
      [INSURANCE_TEMPLATE, RETAIL_TEMPLATE].sort(),
    );
    const changed = res.body.data.map((t: { updated_at: string }) => t.updated_at);
    expect(changed).toEqual([...changed].sort().reverse());
    for (const t of res.body.data) {
      expect(t).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        object: 'estimate_template',
        name: expect.any(String),
        template_number: expect.stringMatching(/^T-\d+$/),
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      });
    }
  });

  test('most recently changed first across a larger set (demo profile, five templates)', async () => {
    const ws = await app().workspace({ profile: 'demo' });
    const data = (await ok(ws.api.get('/estimate_templates'))).data;
    expect(data).toHaveLength(5);
    const changed = data.map((t: { updated_at: string }) => t.updated_at);
    expect(changed).toEqual([...changed].sort().reverse());
  });

  test('limit returns the most recently changed up to it, with has_more false and no cursor', async () => {
    const ws = await app().workspace({ profile: 'demo' });
    const all = (await ok(ws.api.get('/estimate_templates'))).data;
    for (const limit of [1, 2, 4]) {
      const page = await ok(ws.api.get('/estimate_templates', { query: { limit } }));
      expect(page.data).toEqual(all.slice(0, limit));
      expect(page).toMatchObject({ has_more: false, next_cursor: null });
    }
  });

  test('a limit out of 1–200 falls back to 50: every template', async () => {
    const ws = await app().workspace();
    for (const limit of [0, 201]) {
      const page = await ok(ws.api.get('/estimate_templates', { query: { limit } }));
      expect(page.data).toHaveLength(2);
    }
  });

  test('a limit that is not an integer is 400 field limit', async () => {
    const ws = await app().workspace();
    expect400(
      await ws.api.get('/estimate_templates', { query: { limit: 'abc' }, invalid: true }),
      'limit',
    );
  });

  test('a read-only key lists them; each workspace sees its own templates only', async () => {
    const h = app();
    const ws = await h.workspace();
    const other = await h.workspace();
    const mine = (await ok(ws.read.get('/estimate_templates'))).data.map(
      (t: { id: string }) => t.id,
    );
    const theirs = (await ok(other.api.get('/estimate_templates'))).data.map(
      (t: { id: string }) => t.id,
    );
    expect(mine).toHaveLength(2);
    expect(mine.filter((id: string) => theirs.includes(id))).toEqual([]);
  });
});

describe('POST /estimates with template_id: an exact copy, its smart fields filled from the job', () => {
  test('every smart field of the title filled: homeowner, address, carrier and claim', async () => {
    const { ws } = await setup();
    const homeowner = await ok(
      ws.api.post('/contacts', { first_name: 'Dana', last_name: 'Whitfield' }),
      201,
    );
    const job = await newJob(ws, {
      address: '418 Elm Street',
      city: 'Plano',
      homeowner_id: homeowner.id,
      insurance_company: 'State Farm',
      claim_number: 'CLM-88',
    });
    const estimate = await newEstimate(ws, job.id, {
      template_id: await templateId(ws, INSURANCE_TEMPLATE),
    });
    expect(estimate.title).toBe(
      'Roof replacement · Dana Whitfield · 418 Elm Street, Plano · State Farm claim CLM-88',
    );
    expect(estimate.document_type).toBe('estimate');
  });

  test('a segment one of whose fields the job lacks is left out whole (carrier without claim)', async () => {
    const { ws } = await setup();
    const homeowner = await ok(ws.api.post('/contacts', { name: 'Dana Whitfield' }), 201);
    const job = await newJob(ws, { homeowner_id: homeowner.id, insurance_company: 'State Farm' });
    const estimate = await newEstimate(ws, job.id, {
      template_id: await templateId(ws, INSURANCE_TEMPLATE),
    });
    expect(estimate.title).toBe('Roof replacement · Dana Whitfield · 1 Main St');
  });

  test('a job with neither homeowner nor carrier keeps only the segments it can fill', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId, {
      template_id: await templateId(ws, INSURANCE_TEMPLATE),
    });
    expect(estimate.title).toBe('Roof replacement · 1 Main St');
    expect(estimate.title).not.toContain('{');
  });

  test("the retail template's title and document type", async () => {
    const { ws } = await setup();
    const homeowner = await ok(ws.api.post('/contacts', { name: 'Lee Park' }), 201);
    const job = await newJob(ws, { homeowner_id: homeowner.id, job_type: 'retail' });
    const estimate = await newEstimate(ws, job.id, {
      template_id: await templateId(ws, RETAIL_TEMPLATE),
    });
    expect(estimate).toMatchObject({
      title: 'Roof replacement proposal · Lee Park · 1 Main St',
      document_type: 'proposal',
    });
  });

  test("a title in the body replaces the template's", async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId, {
      template_id: await templateId(ws, INSURANCE_TEMPLATE),
      title: 'Supplement for the garage roof',
    });
    expect(estimate).toMatchObject({
      title: 'Supplement for the garage roof',
      document_type: 'estimate',
      total: 13_453,
    });
  });

  test('template_id in upper case names the same template', async () => {
    const { ws, jobId } = await setup();
    const id = await templateId(ws, RETAIL_TEMPLATE);
    const estimate = await newEstimate(ws, jobId, { template_id: id.toUpperCase() });
    expect(estimate.package_totals).toEqual({ good: 8_630, better: 10_190, best: 13_180 });
  });

  test('two copies of one template are alike but for their identity', async () => {
    const { ws, jobId } = await setup();
    const template_id = await templateId(ws, RETAIL_TEMPLATE);
    const a = await newEstimate(ws, jobId, { template_id });
    const b = await newEstimate(ws, jobId, { template_id });
    const same = ['title', 'document_type', 'total', 'package_totals', 'upgrades_total'];
    for (const key of same) {
      expect(b[key], key).toEqual(a[key]);
    }
    expect(b.estimate_number).not.toBe(a.estimate_number);
  });
});
