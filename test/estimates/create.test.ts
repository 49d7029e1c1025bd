// POST /estimates: spec, Estimates (the endpoint), Estimate (the record), States and transitions
// ("draft, never sent by the API"), Errors; decisions.md, Estimates (numbers, valid_until, the
// standard proposal and its smart-filled title) and HTTP conventions (null taken as not sent).
import { describe, expect, test } from 'vitest';
import { harness } from '../support/harness';
import {
  app,
  centralDayEnd,
  centralToday,
  clockNow,
  expect400,
  getEstimate,
  ISO,
  idsOf,
  newEstimate,
  newJob,
  ok,
  plusDays,
  type Setup,
  setup,
  UNKNOWN,
} from './setup';

/** The ids GET /estimates lists: what a refused request must leave untouched. */
const listed = async (s: Setup): Promise<string[]> => idsOf(await s.ws.api.get('/estimates'));

describe('POST /estimates: the draft', () => {
  test('answers 201 with a draft Estimate, as GET /estimates/{id} then returns it', async () => {
    const { h, ws, jobId } = await setup();
    const before = await clockNow(h);
    const res = await ws.api.post('/estimates', { job_id: jobId });
    expect(res.status).toBe(201);
    const id = res.body.id;
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      object: 'estimate',
      estimate_number: 'E-1001',
      title: 'Roofing proposal · 1 Main St',
      document_type: 'proposal',
      status: 'draft',
      signature_status: null,
      total: null,
      package_totals: null,
      upgrades_total: null,
      selected_tier: null,
      job_id: jobId,
      valid_until: expect.stringMatching(ISO),
      sent_at: null,
      first_viewed_at: null,
      last_viewed_at: null,
      signed_at: null,
      view_count: 0,
      signer_name: null,
      pdf_url: `http://localhost/estimates/${id}/pdf`,
      signed_pdf_url: null,
      created_at: expect.stringMatching(ISO),
      updated_at: res.body.created_at,
      url: `http://localhost/estimates/${id}`,
      view_url: null,
    });
    expect(Date.parse(res.body.created_at)).toBeGreaterThanOrEqual(Date.parse(before));
    expect(await getEstimate(ws, id)).toEqual(res.body);
  });

  test('estimate numbers run E-1001, E-1002, ... per workspace', async () => {
    const { h, ws, jobId } = await setup();
    const first = await newEstimate(ws, jobId);
    const second = await newEstimate(ws, jobId);
    const third = await newEstimate(ws, (await newJob(ws)).id);
    expect([first, second, third].map((e) => e.estimate_number)).toEqual([
      'E-1001',
      'E-1002',
      'E-1003',
    ]);
    const other = await setup(h);
    expect((await newEstimate(other.ws, other.jobId)).estimate_number).toBe('E-1001');
  });

  test('a number is never reused: estimates gone with their deleted job keep theirs', async () => {
    const { ws, jobId } = await setup();
    const first = await newEstimate(ws, jobId);
    const second = await newEstimate(ws, jobId);
    expect([first.estimate_number, second.estimate_number]).toEqual(['E-1001', 'E-1002']);
    await ok(ws.api.delete(`/jobs/${jobId}`));
    expect((await ws.api.get(`/estimates/${second.id}`)).status).toBe(404);
    const next = await newEstimate(ws, (await newJob(ws)).id);
    expect(next.estimate_number).toBe('E-1003');
  });

  test('a job_id in upper case names the same job', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId.toUpperCase());
    expect(estimate.job_id).toBe(jobId);
  });

  // decisions.md, HTTP conventions: a value the service does not have is null, so a client that
  // sends a whole record, its unknown fields null, can create with it.
  test('null optional fields are taken as not sent: the standard proposal, its checklist, defaults', async () => {
    const { h, ws, jobId } = await setup();
    const today = await centralToday(h);
    const estimate = await newEstimate(ws, jobId, {
      template_id: null,
      title: null,
      price: null,
      valid_until: null,
      line_items: null,
    });
    expect(estimate).toMatchObject({
      document_type: 'proposal',
      title: 'Roofing proposal · 1 Main St',
      total: null,
      valid_until: centralDayEnd(plusDays(today, 30)),
    });
  });

  test('no field of a new estimate is an empty string: what it lacks is null', async () => {
    const { ws, jobId } = await setup();
    const bare = await newEstimate(ws, jobId, { title: '   ' });
    const blanks = Object.entries(bare).filter(([, v]) => v === '');
    expect(blanks).toEqual([]);
    expect(bare.title).toBe('Roofing proposal · 1 Main St');
  });
});

describe('POST /estimates: the standard proposal', () => {
  test('without a template the document is a proposal titled from the job', async () => {
    const { ws } = await setup();
    const homeowner = await ok(ws.api.post('/contacts', { name: 'Dana Whitfield' }), 201);
    const job = await newJob(ws, {
      address: '418 Elm Street',
      city: 'Plano',
      homeowner_id: homeowner.id,
    });
    const estimate = await newEstimate(ws, job.id);
    expect(estimate.document_type).toBe('proposal');
    expect(estimate.title).toBe('Roofing proposal · Dana Whitfield · 418 Elm Street, Plano');
  });

  test('a title segment whose smart field the job lacks is left out, never shown empty', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId);
    expect(estimate.title).toBe('Roofing proposal · 1 Main St');
    expect(estimate.title).not.toMatch(/\{|· ·|· $/);
  });

  test('a homeowner known only by company is named by it', async () => {
    const { ws } = await setup();
    const homeowner = await ok(ws.api.post('/contacts', { company: 'Doe Holdings' }), 201);
    const job = await newJob(ws, { homeowner_id: homeowner.id });
    expect((await newEstimate(ws, job.id)).title).toBe(
      'Roofing proposal · Doe Holdings · 1 Main St',
    );
  });

  test('a deleted homeowner is no smart field: the title leaves the name out', async () => {
    const { ws } = await setup();
    const homeowner = await ok(ws.api.post('/contacts', { name: 'Dana Whitfield' }), 201);
    const job = await newJob(ws, { homeowner_id: homeowner.id });
    await ok(ws.api.delete(`/contacts/${homeowner.id}`));
    expect((await newEstimate(ws, job.id)).title).toBe('Roofing proposal · 1 Main St');
  });

  test('title in the body replaces the standard title, trimmed', async () => {
    const { ws, jobId } = await setup();
    const estimate = await newEstimate(ws, jobId, { title: '  Hail repair, north slope  ' });
    expect(estimate.title).toBe('Hail repair, north slope');
  });

  test('a title of exactly 300 characters is kept whole', async () => {
    const { ws, jobId } = await setup();
    const title = 't'.repeat(300);
    expect((await newEstimate(ws, jobId, { title })).title).toBe(title);
  });
});

describe('POST /estimates: valid_until', () => {
  test('defaults to the end of the day 30 days after today, US Central, shown as a date-time', async () => {
    const { h, ws, jobId } = await setup();
    const today = await centralToday(h);
    const estimate = await newEstimate(ws, jobId);
    expect(estimate.valid_until).toBe(centralDayEnd(plusDays(today, 30)));
    // The day passes at Central midnight: 05:59:59.999Z in standard time, 04:59 in daylight time.
    expect(estimate.valid_until).toMatch(/T0[45]:59:59\.999Z$/);
  });

  test.each([
    ['a day of standard time', '2099-01-15', '2099-01-16T05:59:59.999Z'],
    ['a day of daylight time', '2099-07-15', '2099-07-16T04:59:59.999Z'],
    ['the day daylight time begins', '2099-03-08', '2099-03-09T04:59:59.999Z'],
    ['the day daylight time ends', '2099-11-01', '2099-11-02T05:59:59.999Z'],
  ])(
    'a date on %s is shown as the instant that day passes in US Central',
    async (_, date, shown) => {
      const { ws, jobId } = await setup();
      expect((await newEstimate(ws, jobId, { valid_until: date })).valid_until).toBe(shown);
    },
  );

  test('today is accepted: valid until the end of today', async () => {
    const { h, ws, jobId } = await setup();
    const today = await centralToday(h);
    const estimate = await newEstimate(ws, jobId, { valid_until: today });
    expect(estimate.valid_until).toBe(centralDayEnd(today));
  });

  test('a date before today is 400 field valid_until, nothing created', async () => {
    const s = await setup();
    const yesterday = plusDays(await centralToday(s.h), -1);
    const res = await s.ws.api.post('/estimates', { job_id: s.jobId, valid_until: yesterday });
    expect400(res, 'valid_until');
    expect(await listed(s)).toEqual([]);
  });

  test.each([
    ['2099-02-30'],
    ['2099-13-01'],
    ['15/01/2099'],
    ['2099-01-15T10:00:00Z'],
    [''],
    [20990115],
  ])('valid_until %j is 400 field valid_until', async (valid_until) => {
    const s = await setup();
    const res = await s.ws.api.post(
      '/estimates',
      { job_id: s.jobId, valid_until },
      { invalid: true },
    );
    expect400(res, 'valid_until');
    expect(await listed(s)).toEqual([]);
  });
});

// decisions.md, Money: "today" is a day in America/Chicago. These tests set the clock, so each
// runs on an app of its own (the clock only moves forward).
describe('POST /estimates: valid_until on the US Central calendar', () => {
  /** A workspace and job on a new app whose clock reads `at`. */
  async function at(instant: string) {
    const s = await setup(harness({ rateLimit: null }));
    await ok(s.h.admin.post('/clock', { set: instant }));
    return s;
  }

  test('at 9 pm in Chicago, already tomorrow in UTC, today is still the Chicago day', async () => {
    const s = await at('2099-01-16T03:00:00.000Z');
    const today = await newEstimate(s.ws, s.jobId, { valid_until: '2099-01-15' });
    expect(today.valid_until).toBe('2099-01-16T05:59:59.999Z');
    expect((await newEstimate(s.ws, s.jobId)).valid_until).toBe('2099-02-15T05:59:59.999Z');
    expect400(
      await s.ws.api.post('/estimates', { job_id: s.jobId, valid_until: '2099-01-14' }),
      'valid_until',
    );
  });

  test('the default 30 days on, across the start of daylight time, ends at Central midnight', async () => {
    const s = await at('2099-02-20T18:00:00.000Z');
    expect((await newEstimate(s.ws, s.jobId)).valid_until).toBe('2099-03-23T04:59:59.999Z');
  });

  test('valid until today (Chicago), it expires at Chicago midnight, not UTC midnight', async () => {
    const s = await at('2099-01-15T20:00:00.000Z');
    const made = await newEstimate(s.ws, s.jobId, { valid_until: '2099-01-15' });
    await ok(s.h.admin.post('/clock', { set: '2099-01-16T05:59:00.000Z' }));
    expect((await getEstimate(s.ws, made.id)).status).toBe('draft');
    await ok(s.h.admin.post('/clock', { set: '2099-01-16T06:00:01.000Z' }));
    expect((await getEstimate(s.ws, made.id)).status).toBe('expired');
  });
});

describe('POST /estimates: what the API does not set', () => {
  test('a create is always a draft: status and signature fields in the body are ignored', async () => {
    const s = await setup();
    const res = await s.ws.api.post(
      '/estimates',
      {
        job_id: s.jobId,
        status: 'signed',
        signature_status: 'signed',
        sent_at: '2026-01-01T00:00:00.000Z',
        signer_name: 'Someone',
        selected_tier: 'best',
        estimate_number: 'E-7777',
        view_count: 9,
      },
      { invalid: true },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'draft',
      signature_status: null,
      sent_at: null,
      signer_name: null,
      selected_tier: null,
      estimate_number: 'E-1001',
      view_count: 0,
      view_url: null,
    });
  });

  test('other fields of a line are ignored: the total is quantity × unit_price', async () => {
    const s = await setup();
    const res = await s.ws.api.post(
      '/estimates',
      {
        job_id: s.jobId,
        line_items: [{ name: 'Roof', quantity: 2, unit_price: 100, total: 5, sku: 'R-1' }],
      },
      { invalid: true },
    );
    expect(res.status).toBe(201);
    expect(res.body.total).toBe(200);
  });

  test('lines may come to $1,000,000,000, credits counted as their size; a cent more is 400 line_items', async () => {
    const s = await setup();
    const most = await newEstimate(s.ws, s.jobId, {
      line_items: [
        { name: 'Most', quantity: 100, unit_price: 9_000_000 },
        { name: 'Credit', quantity: 10, unit_price: -10_000_000 },
        { name: 'Free', quantity: 0, unit_price: 1 },
      ],
    });
    expect(most.total).toBe(900_000_000 - 100_000_000);
    const over = await s.ws.api.post('/estimates', {
      job_id: s.jobId,
      line_items: [
        { name: 'Most', quantity: 100, unit_price: 9_000_000 },
        { name: 'Credit', quantity: 10, unit_price: -10_000_000 },
        { name: 'Cent', unit_price: 0.01 },
      ],
    });
    expect400(over, 'line_items');
  });
});

describe('POST /estimates: 400 invalid_request naming the field, nothing created', () => {
  // 'JOB' stands for the test's own job, filled in after the table is read.
  test.each<[string, string, Record<string, unknown>]>([
    ['no job_id', 'job_id', {}],
    ['job_id null', 'job_id', { job_id: null }],
    ['job_id not a uuid', 'job_id', { job_id: 'J-1001' }],
    ['job_id a number', 'job_id', { job_id: 42 }],
    ['line_items []', 'line_items', { job_id: 'JOB', line_items: [] }],
    ['line_items not an array', 'line_items', { job_id: 'JOB', line_items: 'roof' }],
    [
      'a line without unit_price',
      'line_items[0].unit_price',
      { job_id: 'JOB', line_items: [{ name: 'Roof' }] },
    ],
    [
      'a second line with a text unit_price',
      'line_items[1].unit_price',
      {
        job_id: 'JOB',
        line_items: [
          { name: 'a', unit_price: 1 },
          { name: 'b', unit_price: '1' },
        ],
      },
    ],
    [
      'a line without name',
      'line_items[0].name',
      { job_id: 'JOB', line_items: [{ unit_price: 5 }] },
    ],
    [
      'a line with a blank name',
      'line_items[0].name',
      { job_id: 'JOB', line_items: [{ name: '  ', unit_price: 5 }] },
    ],
    [
      'a line name over 300 characters',
      'line_items[0].name',
      { job_id: 'JOB', line_items: [{ name: 'n'.repeat(301), unit_price: 5 }] },
    ],
    [
      'a negative quantity',
      'line_items[0].quantity',
      { job_id: 'JOB', line_items: [{ name: 'a', unit_price: 5, quantity: -1 }] },
    ],
    [
      'a quantity over 1,000,000',
      'line_items[0].quantity',
      { job_id: 'JOB', line_items: [{ name: 'a', unit_price: 5, quantity: 1_000_001 }] },
    ],
    [
      'a unit_price over 10,000,000',
      'line_items[0].unit_price',
      { job_id: 'JOB', line_items: [{ name: 'a', unit_price: 10_000_001 }] },
    ],
    [
      'a unit_price under -10,000,000',
      'line_items[0].unit_price',
      { job_id: 'JOB', line_items: [{ name: 'a', unit_price: -10_000_001 }] },
    ],
    [
      'taxable not a boolean',
      'line_items[0].taxable',
      { job_id: 'JOB', line_items: [{ name: 'a', unit_price: 5, taxable: 'yes' }] },
    ],
    ['price 0', 'price', { job_id: 'JOB', price: 0 }],
    ['price negative', 'price', { job_id: 'JOB', price: -250 }],
    [
      'price under half a cent (its total would show as 0)',
      'price',
      { job_id: 'JOB', price: 0.004 },
    ],
    ['price as text', 'price', { job_id: 'JOB', price: '9500' }],
    ['template_id not a uuid', 'template_id', { job_id: 'JOB', template_id: 'T-1001' }],
    ['template_id naming no template', 'template_id', { job_id: 'JOB', template_id: UNKNOWN }],
    ['title over 300 characters', 'title', { job_id: 'JOB', title: 't'.repeat(301) }],
    ['title not text', 'title', { job_id: 'JOB', title: 7 }],
  ])('%s is 400 field %s', async (_, field, body) => {
    const s = await setup();
    const sent = { ...body, ...(body.job_id === 'JOB' ? { job_id: s.jobId } : {}) };
    const res = await s.ws.api.post('/estimates', sent, { invalid: true });
    expect400(res, field);
    expect(await listed(s)).toEqual([]);
  });

  test('501 lines is 400 field line_items; 500 are accepted', async () => {
    const s = await setup();
    const line = { name: 'Shingle bundle', unit_price: 1 };
    const over = await s.ws.api.post(
      '/estimates',
      { job_id: s.jobId, line_items: Array.from({ length: 501 }, () => line) },
      { invalid: true },
    );
    expect400(over, 'line_items');
    expect(await listed(s)).toEqual([]);
    const most = await newEstimate(s.ws, s.jobId, {
      line_items: Array.from({ length: 500 }, () => line),
    });
    expect(most.total).toBe(500);
  });

  test('a job_id naming no job is 400 field job_id', async () => {
    const s = await setup();
    expect400(await s.ws.api.post('/estimates', { job_id: UNKNOWN }), 'job_id');
    expect(await listed(s)).toEqual([]);
  });

  test("another workspace's job is 400 field job_id", async () => {
    const s = await setup();
    const other = await setup(s.h);
    expect400(await s.ws.api.post('/estimates', { job_id: other.jobId }), 'job_id');
    expect(await listed(s)).toEqual([]);
    expect(await listed(other)).toEqual([]);
  });

  test('a deleted job is 400 field job_id', async () => {
    const s = await setup();
    await ok(s.ws.api.delete(`/jobs/${s.jobId}`));
    expect400(await s.ws.api.post('/estimates', { job_id: s.jobId }), 'job_id');
    expect(await listed(s)).toEqual([]);
  });

  test("another workspace's template is 400 field template_id", async () => {
    const s = await setup();
    const other = await s.h.workspace();
    const theirs = (await ok(other.api.get('/estimate_templates'))).data[0].id;
    const res = await s.ws.api.post('/estimates', { job_id: s.jobId, template_id: theirs });
    expect400(res, 'template_id');
    expect(await listed(s)).toEqual([]);
  });

  test('template_id with line_items is 400 field line_items: the API cannot edit the lines', async () => {
    const s = await setup();
    const template = (await ok(s.ws.api.get('/estimate_templates'))).data[0].id;
    const res = await s.ws.api.post('/estimates', {
      job_id: s.jobId,
      template_id: template,
      line_items: [{ name: 'Extra', unit_price: 100 }],
    });
    expect400(res, 'line_items');
    expect(await listed(s)).toEqual([]);
  });

  test('a body that is not an object is 400 invalid_request', async () => {
    const s = await setup();
    const res = await s.ws.api.post('/estimates', [{ job_id: s.jobId }], { invalid: true });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(await listed(s)).toEqual([]);
  });
});

describe('POST /estimates: Idempotency-Key', () => {
  test('a replay answers the first estimate again and makes no second one', async () => {
    const s = await setup();
    const headers = { 'Idempotency-Key': 'estimate-once' };
    const first = await s.ws.api.post('/estimates', { job_id: s.jobId }, { headers });
    expect(first.status).toBe(201);
    const again = await s.ws.api.post('/estimates', { job_id: s.jobId }, { headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await listed(s)).toEqual([first.body.id]);
    expect((await newEstimate(s.ws, s.jobId)).estimate_number).toBe('E-1002');
  });
});

describe('POST /estimates: who may', () => {
  test('a read-only key is 403 forbidden and creates nothing', async () => {
    const s = await setup();
    const res = await s.ws.read.post('/estimates', { job_id: s.jobId });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
    expect(await listed(s)).toEqual([]);
    // The refused request took no number either.
    expect((await newEstimate(s.ws, s.jobId)).estimate_number).toBe('E-1001');
  });

  test('a read-only key is 403 even for a body that would be 400', async () => {
    const s = await setup();
    const res = await s.ws.read.post('/estimates', { price: 0 }, { invalid: true });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('forbidden');
  });

  test('without a credential it is 401', async () => {
    const s = await setup();
    const res = await app().anonymous.post('/estimates', { job_id: s.jobId });
    expect(res.status).toBe(401);
    expect(await listed(s)).toEqual([]);
  });
});
