import { describe, expect, test } from 'vitest';
import type { TestWorkspace } from '../support/harness';
import {
  advance,
  centralDate,
  expectError,
  fresh,
  get,
  idsOf,
  invoiceOf,
  jobOf,
  LINE,
  markSent,
  newContact,
  newInvoice,
  newJob,
  nowMs,
  ok,
  plusDays,
  toLateCentralEvening,
  UNKNOWN,
  view,
  voidIt,
} from './setup';

// POST /invoices: spec, Invoices and States and transitions; decisions.md, Invoices and Money.

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const listed = async (ws: TestWorkspace) => idsOf(await get(ws.api, '/invoices'));

describe('POST /invoices answers a draft', () => {
  test('201 with the whole Invoice: numbered, totalled, a draft with no pay page; GET agrees', async () => {
    const { h, ws } = await fresh();
    const owner = await newContact(ws);
    const job = await newJob(ws, { homeowner_id: owner.id });
    const before = await nowMs(h);
    const res = await ws.api.post('/invoices', {
      job_id: job.id,
      title: 'Roof replacement',
      purpose: 'other',
      due_date: plusDays(centralDate(before), 30),
      line_items: [
        { name: 'Shingles', quantity: 30, unit_price: 95.5, taxable: true },
        { name: 'Permit', unit_price: 150 },
      ],
      tax_rate: 8.25,
      discount_type: 'amount',
      discount_value: 100,
      notes: 'Thank you',
      terms: 'Net 30',
      allow_partial_payments: false,
    });
    expect(res.status, res.text).toBe(201);
    // subtotal 2865 + 150 = 3015; the taxable lines' share of the $100 discount is
    // 100 × 2865 / 3015 = 95.02; tax 8.25 % of (2865 − 95.02) = 228.52; total 3143.52.
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      object: 'invoice',
      invoice_number: 'INV-1001',
      title: 'Roof replacement',
      status: 'draft',
      purpose: 'other',
      subtotal: 3015,
      discount_amount: 100,
      tax_amount: 228.52,
      late_fee_amount: null,
      total_amount: 3143.52,
      amount_paid: 0,
      balance_due: 3143.52,
      part_number: null,
      part_count: null,
      issue_date: centralDate(before),
      due_date: plusDays(centralDate(before), 30),
      sent_at: null,
      first_viewed_at: null,
      paid_at: null,
      job_id: job.id,
      contact_id: owner.id,
      estimate_id: null,
      pdf_url: expect.stringMatching(/^http:\/\/localhost\//),
      created_at: expect.stringMatching(ISO),
      updated_at: res.body.created_at,
      url: `http://localhost/invoices/${res.body.id}`,
      payment_url: null,
    });
    expect(Date.parse(res.body.created_at)).toBeGreaterThanOrEqual(before);
    expect(await invoiceOf(ws, res.body.id)).toEqual(res.body);
  });

  test('an invoice billed to a contact alone has no job', async () => {
    const { ws } = await fresh();
    const contact = await newContact(ws);
    const inv = await newInvoice(ws, { contact_id: contact.id });
    expect(inv).toMatchObject({ job_id: null, contact_id: contact.id, status: 'draft' });
  });

  test("the contact defaults to the job's homeowner; a contact_id sent wins", async () => {
    const { ws } = await fresh();
    const owner = await newContact(ws, { name: 'Hal Owner' });
    const other = await newContact(ws, { name: 'Pat Payer' });
    const job = await newJob(ws, { homeowner_id: owner.id });
    expect((await newInvoice(ws, { job_id: job.id })).contact_id).toBe(owner.id);
    expect((await newInvoice(ws, { job_id: job.id, contact_id: other.id })).contact_id).toBe(
      other.id,
    );
  });

  test('a job with no homeowner gives an invoice with no contact', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    expect((await newInvoice(ws, { job_id: job.id })).contact_id).toBeNull();
  });

  test('an estimate of the same job is kept', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const estimate = await ok(ws.api.post('/estimates', { job_id: job.id }), 201);
    const inv = await newInvoice(ws, { job_id: job.id, estimate_id: estimate.id });
    expect(inv.estimate_id).toBe(estimate.id);
  });

  // spec, LineItemInput: "a way to mark a line taxable exists"; Invoices: "tax applies to taxable
  // lines". A line is taxable when marked so; one that says nothing is not.
  test('tax applies to the lines marked taxable, not to a line left unmarked', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, {
      job_id: job.id,
      line_items: [
        { name: 'Shingles', unit_price: 50, quantity: 2, taxable: true },
        { name: 'Labour', unit_price: 100 },
      ],
      tax_rate: 10,
    });
    expect(inv).toMatchObject({ subtotal: 200, tax_amount: 10, total_amount: 210 });
  });

  test('a line that leaves out quantity is one of it', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, {
      job_id: job.id,
      line_items: [{ name: 'Gutter', unit_price: 200, taxable: true }],
      tax_rate: 10,
    });
    expect(inv).toMatchObject({ subtotal: 200, tax_amount: 20, total_amount: 220 });
  });

  test('taxable: false is taken, as unmarked is', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, {
      job_id: job.id,
      line_items: [{ name: 'Permit', unit_price: 80, taxable: false }],
      tax_rate: 10,
    });
    expect(inv).toMatchObject({ subtotal: 80, tax_amount: 0, total_amount: 80 });
  });

  test('text is trimmed and a blank title is null', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, { job_id: job.id, title: '   ' });
    expect(inv.title).toBeNull();
    const named = await newInvoice(ws, { job_id: job.id, title: '  Deductible  ' });
    expect(named.title).toBe('Deductible');
  });

  test('null for an optional field is taken as not sent', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, {
      job_id: job.id,
      contact_id: null,
      estimate_id: null,
      title: null,
      purpose: null,
      issue_date: null,
      due_date: null,
      tax_rate: null,
      discount_type: null,
      discount_value: null,
    });
    expect(inv).toMatchObject({
      status: 'draft',
      title: null,
      purpose: null,
      issue_date: expect.any(String),
      tax_amount: null,
      discount_amount: null,
    });
  });
});

describe('numbering', () => {
  test('invoices are INV-1001, INV-1002, ... per workspace, each number once', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const contact = await newContact(ws);
    const numbers = [
      (await newInvoice(ws, { job_id: job.id })).invoice_number,
      (await newInvoice(ws, { contact_id: contact.id })).invoice_number,
      (await newInvoice(ws, { job_id: job.id })).invoice_number,
    ];
    expect(numbers).toEqual(['INV-1001', 'INV-1002', 'INV-1003']);
    const other = await h.workspace();
    const theirs = await newInvoice(other, { job_id: (await newJob(other)).id });
    expect(theirs.invoice_number).toBe('INV-1001');
  });

  test("a deleted draft's number is not given again", async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    await newInvoice(ws, { job_id: job.id });
    const second = await newInvoice(ws, { job_id: job.id });
    expect(second.invoice_number).toBe('INV-1002');
    await ok(ws.api.delete(`/invoices/${second.id}`));
    expect((await newInvoice(ws, { job_id: job.id })).invoice_number).toBe('INV-1003');
  });

  test('a refused invoice takes no number', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const bad = await ws.api.post(
      '/invoices',
      { job_id: job.id, line_items: [LINE], tax_rate: 101 },
      {
        invalid: true,
      },
    );
    expect(bad.status).toBe(400);
    expect((await newInvoice(ws, { job_id: job.id })).invoice_number).toBe('INV-1001');
  });
});

describe('issue_date', () => {
  test('defaults to today in US Central time, not UTC', async () => {
    const { h, ws } = await fresh();
    const today = await toLateCentralEvening(h);
    const job = await newJob(ws);
    expect((await newInvoice(ws, { job_id: job.id })).issue_date).toBe(today);
  });

  test('follows the clock', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const first = await newInvoice(ws, { job_id: job.id });
    const later = await advance(h, 3 * 24 * 60 * 60);
    const second = await newInvoice(ws, { job_id: job.id });
    expect(second.issue_date).toBe(centralDate(later));
    expect(second.issue_date).toBe(plusDays(first.issue_date, 3));
  });

  test('an issue_date sent is kept', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, {
      job_id: job.id,
      issue_date: '2026-01-15',
      due_date: '2026-01-15',
    });
    expect(inv).toMatchObject({ issue_date: '2026-01-15', due_date: '2026-01-15' });
  });
});

describe('POST /invoices refuses', () => {
  const bad = (field: string, body: (ids: Ids) => Record<string, unknown>) => ({ field, body });
  interface Ids {
    job: string;
    otherJob: string;
    contact: string;
    otherEstimate: string;
  }
  const cases: [string, { field: string; body: (ids: Ids) => Record<string, unknown> }][] = [
    ['neither job_id nor contact_id', bad('job_id', () => ({ line_items: [LINE] }))],
    ['an unknown job', bad('job_id', () => ({ job_id: UNKNOWN, line_items: [LINE] }))],
    ['a job_id that is no uuid', bad('job_id', () => ({ job_id: 'J-1001', line_items: [LINE] }))],
    [
      'an unknown contact',
      bad('contact_id', (i) => ({ job_id: i.job, contact_id: UNKNOWN, line_items: [LINE] })),
    ],
    [
      'an unknown contact alone',
      bad('contact_id', () => ({ contact_id: UNKNOWN, line_items: [LINE] })),
    ],
    [
      'an estimate of another job',
      bad('estimate_id', (i) => ({
        job_id: i.job,
        estimate_id: i.otherEstimate,
        line_items: [LINE],
      })),
    ],
    [
      'an unknown estimate',
      bad('estimate_id', (i) => ({ job_id: i.job, estimate_id: UNKNOWN, line_items: [LINE] })),
    ],
    ['no line_items', bad('line_items', (i) => ({ job_id: i.job }))],
    ['empty line_items', bad('line_items', (i) => ({ job_id: i.job, line_items: [] }))],
    ['501 lines', bad('line_items', (i) => ({ job_id: i.job, line_items: Array(501).fill(LINE) }))],
    [
      'a line without a price',
      bad('line_items[0].unit_price', (i) => ({ job_id: i.job, line_items: [{ name: 'x' }] })),
    ],
    [
      'a line without a name',
      bad('line_items[0].name', (i) => ({ job_id: i.job, line_items: [{ unit_price: 1 }] })),
    ],
    [
      'a negative quantity',
      bad('line_items[0].quantity', (i) => ({
        job_id: i.job,
        line_items: [{ ...LINE, quantity: -1 }],
      })),
    ],
    [
      'tax_rate below 0',
      bad('tax_rate', (i) => ({ job_id: i.job, line_items: [LINE], tax_rate: -0.01 })),
    ],
    [
      'tax_rate above 100',
      bad('tax_rate', (i) => ({ job_id: i.job, line_items: [LINE], tax_rate: 100.001 })),
    ],
    [
      'a negative discount_value',
      bad('discount_value', (i) => ({ job_id: i.job, line_items: [LINE], discount_value: -1 })),
    ],
    [
      'a percent discount over 100',
      bad('discount_value', (i) => ({
        job_id: i.job,
        line_items: [LINE],
        discount_type: 'percent',
        discount_value: 100.5,
      })),
    ],
    [
      'an unknown discount_type',
      bad('discount_type', (i) => ({
        job_id: i.job,
        line_items: [LINE],
        discount_type: 'coupon',
        discount_value: 5,
      })),
    ],
    [
      'an unknown purpose',
      bad('purpose', (i) => ({ job_id: i.job, line_items: [LINE], purpose: 'warranty' })),
    ],
    [
      'due_date before issue_date (both sent)',
      bad('due_date', (i) => ({
        job_id: i.job,
        line_items: [LINE],
        issue_date: '2026-03-10',
        due_date: '2026-03-09',
      })),
    ],
    [
      'due_date before today (issue_date left out)',
      bad('due_date', (i) => ({ job_id: i.job, line_items: [LINE], due_date: '2020-01-01' })),
    ],
    [
      'an impossible date',
      bad('issue_date', (i) => ({ job_id: i.job, line_items: [LINE], issue_date: '2026-02-30' })),
    ],
  ];

  test.each(cases)('%s: 400 naming the field, nothing created', async (_name, c) => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const otherJob = await newJob(ws, { name: 'Other' });
    const contact = await newContact(ws);
    const otherEstimate = await ok(ws.api.post('/estimates', { job_id: otherJob.id }), 201);
    const ids = {
      job: job.id,
      otherJob: otherJob.id,
      contact: contact.id,
      otherEstimate: otherEstimate.id,
    };
    const res = await ws.api.post('/invoices', c.body(ids), { invalid: true });
    expectError(res, 400, 'invalid_request', c.field);
    expect(await listed(ws)).toEqual([]);
  });

  test('a deleted job is no job: 400 job_id', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    await ok(ws.api.delete(`/jobs/${job.id}`));
    const res = await ws.api.post('/invoices', { job_id: job.id, line_items: [LINE] });
    expectError(res, 400, 'invalid_request', 'job_id');
  });

  test('a deleted contact is no contact: 400 contact_id', async () => {
    const { ws } = await fresh();
    const contact = await newContact(ws);
    await ok(ws.api.delete(`/contacts/${contact.id}`));
    const res = await ws.api.post('/invoices', { contact_id: contact.id, line_items: [LINE] });
    expectError(res, 400, 'invalid_request', 'contact_id');
  });

  test("another workspace's job, contact and estimate are unknown here", async () => {
    const { h, ws } = await fresh();
    const theirs = await h.workspace();
    const job = await newJob(theirs);
    const contact = await newContact(theirs);
    const estimate = await ok(theirs.api.post('/estimates', { job_id: job.id }), 201);
    const mine = await newJob(ws);
    expectError(
      await ws.api.post('/invoices', { job_id: job.id, line_items: [LINE] }),
      400,
      'invalid_request',
      'job_id',
    );
    expectError(
      await ws.api.post('/invoices', { contact_id: contact.id, line_items: [LINE] }),
      400,
      'invalid_request',
      'contact_id',
    );
    expectError(
      await ws.api.post('/invoices', {
        job_id: mine.id,
        estimate_id: estimate.id,
        line_items: [LINE],
      }),
      400,
      'invalid_request',
      'estimate_id',
    );
    expect(await listed(ws)).toEqual([]);
  });

  test('the edges are accepted: tax_rate 0 and 100, a 100 % discount, due_date = issue_date', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const zero = await newInvoice(ws, { job_id: job.id, tax_rate: 0 });
    expect(zero).toMatchObject({ tax_amount: 0, total_amount: 1000 });
    const full = await newInvoice(ws, { job_id: job.id, tax_rate: 100 });
    expect(full).toMatchObject({ tax_amount: 1000, total_amount: 2000 });
    const free = await newInvoice(ws, {
      job_id: job.id,
      discount_type: 'percent',
      discount_value: 100,
    });
    expect(free).toMatchObject({ discount_amount: 1000, total_amount: 0, balance_due: 0 });
    const same = await newInvoice(ws, {
      job_id: job.id,
      issue_date: '2026-05-01',
      due_date: '2026-05-01',
    });
    expect(same.due_date).toBe('2026-05-01');
  });

  test('a read-only key is 403 forbidden and creates nothing', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const res = await ws.read.post('/invoices', { job_id: job.id, line_items: [LINE] });
    expectError(res, 403, 'forbidden');
    expect(await listed(ws)).toEqual([]);
    // Nor did it take a number.
    expect((await newInvoice(ws, { job_id: job.id })).invoice_number).toBe('INV-1001');
  });
});

describe('purpose fills the job figure', () => {
  // decisions.md, Invoices: claim_scope → rcv_amount, deductible → deductible, contract →
  // final_amount, each the invoice's total; supplement → the sum of the job's supplement
  // invoices that are not void; depreciation and other fill none. total_job_value follows.
  test('deductible sets the job deductible to the total; the claim value does not move', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 20000 });
    await newInvoice(ws, {
      job_id: job.id,
      purpose: 'deductible',
      line_items: [{ name: 'Deductible', unit_price: 1250.5 }],
    });
    expect(await jobOf(ws, job.id)).toMatchObject({
      deductible: 1250.5,
      rcv_amount: 20000,
      total_job_value: 20000,
    });
  });

  test('an invoice that is all credit sets its job figure to 0, never below', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 20000, deductible: 1000 });
    const credit = [{ name: 'Credit', unit_price: -500 }];
    await newInvoice(ws, { job_id: job.id, purpose: 'deductible', line_items: credit });
    await newInvoice(ws, { job_id: job.id, purpose: 'claim_scope', line_items: credit });
    await newInvoice(ws, { job_id: job.id, purpose: 'supplement', line_items: credit });
    expect(await jobOf(ws, job.id)).toMatchObject({
      deductible: 0,
      rcv_amount: 0,
      supplements_amount: 0,
      total_job_value: 0,
    });
  });

  test('an invoice whose tax takes it past $1,000,000,000 sets its job figure to that most', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const most = [{ name: 'Scope', quantity: 100, unit_price: 10_000_000, taxable: true }];
    const inv = await newInvoice(ws, {
      job_id: job.id,
      purpose: 'claim_scope',
      line_items: most,
      tax_rate: 100,
    });
    expect(inv.total_amount).toBe(2_000_000_000);
    await newInvoice(ws, { job_id: job.id, purpose: 'supplement', line_items: most });
    await newInvoice(ws, { job_id: job.id, purpose: 'supplement', line_items: most });
    const after = await jobOf(ws, job.id);
    expect(after).toMatchObject({ rcv_amount: 1_000_000_000, supplements_amount: 1_000_000_000 });
    // The job's figures go back through the job API as they are.
    await ok(
      ws.api.patch(`/jobs/${job.id}`, {
        rcv_amount: after.rcv_amount,
        supplements_amount: after.supplements_amount,
      }),
    );
  });

  test('claim_scope sets rcv_amount, and the insurance job is worth it plus supplements', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { estimated_amount: 9000, supplements_amount: 500 });
    expect(job.total_job_value).toBe(9000);
    await newInvoice(ws, {
      job_id: job.id,
      purpose: 'claim_scope',
      line_items: [{ name: 'Scope', unit_price: 15000, taxable: true }],
      tax_rate: 10,
    });
    expect(await jobOf(ws, job.id)).toMatchObject({
      rcv_amount: 16500,
      total_job_value: 17000,
      balance_due: 17000,
    });
  });

  test('contract sets final_amount, and a retail job is worth it', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { job_type: 'retail', estimated_amount: 8000 });
    await newInvoice(ws, {
      job_id: job.id,
      purpose: 'contract',
      line_items: [{ name: 'Contract', unit_price: 9500 }],
    });
    expect(await jobOf(ws, job.id)).toMatchObject({ final_amount: 9500, total_job_value: 9500 });
  });

  test('contract on an insurance job sets final_amount; the claim still decides the value', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 12000 });
    await newInvoice(ws, { job_id: job.id, purpose: 'contract' });
    expect(await jobOf(ws, job.id)).toMatchObject({ final_amount: 1000, total_job_value: 12000 });
  });

  test('supplement sets supplements_amount to the sum of the supplement invoices not void', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 10000 });
    const one = await newInvoice(ws, {
      job_id: job.id,
      purpose: 'supplement',
      line_items: [{ name: 'Drip edge', unit_price: 0.1 }],
    });
    await newInvoice(ws, {
      job_id: job.id,
      purpose: 'supplement',
      line_items: [{ name: 'Ice shield', unit_price: 0.2 }],
    });
    expect(await jobOf(ws, job.id)).toMatchObject({
      supplements_amount: 0.3,
      total_job_value: 10000.3,
    });
    const three = await newInvoice(ws, {
      job_id: job.id,
      purpose: 'supplement',
      line_items: [{ name: 'Vents', unit_price: 400 }],
    });
    expect((await jobOf(ws, job.id)).supplements_amount).toBe(400.3);
    // Voiding one takes it out; deleting a draft one takes it out.
    await markSent(ws, one.id);
    await voidIt(ws, one.id);
    expect((await jobOf(ws, job.id)).supplements_amount).toBe(400.2);
    await ok(ws.api.delete(`/invoices/${three.id}`));
    expect(await jobOf(ws, job.id)).toMatchObject({
      supplements_amount: 0.2,
      total_job_value: 10000.2,
    });
  });

  test("another job's supplements are not summed", async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 10000 });
    const other = await newJob(ws, { name: 'Other' });
    await newInvoice(ws, { job_id: other.id, purpose: 'supplement' });
    await newInvoice(ws, {
      job_id: job.id,
      purpose: 'supplement',
      line_items: [{ name: 'Vents', unit_price: 250 }],
    });
    expect((await jobOf(ws, job.id)).supplements_amount).toBe(250);
    expect((await jobOf(ws, other.id)).supplements_amount).toBe(1000);
  });

  test.each(['depreciation', 'other'])(
    '%s fills no figure: the job is untouched',
    async (purpose) => {
      const { h, ws } = await fresh();
      const job = await newJob(ws, { rcv_amount: 10000, deductible: 1000, final_amount: 11000 });
      await advance(h, 1);
      await newInvoice(ws, { job_id: job.id, purpose });
      expect(await jobOf(ws, job.id)).toEqual(job);
    },
  );

  test('a PATCH of the draft fills the figure again from the new total', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, { job_id: job.id, purpose: 'deductible' });
    expect((await jobOf(ws, job.id)).deductible).toBe(1000);
    await ok(
      ws.api.patch(`/invoices/${inv.id}`, {
        line_items: [{ name: 'Deductible', unit_price: 1500 }],
      }),
    );
    expect((await jobOf(ws, job.id)).deductible).toBe(1500);
  });

  test('a supplement PATCHed to another purpose leaves the sum', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 10000 });
    const inv = await newInvoice(ws, { job_id: job.id, purpose: 'supplement' });
    await newInvoice(ws, {
      job_id: job.id,
      purpose: 'supplement',
      line_items: [{ name: 'Vents', unit_price: 300 }],
    });
    expect((await jobOf(ws, job.id)).supplements_amount).toBe(1300);
    await ok(ws.api.patch(`/invoices/${inv.id}`, { purpose: 'other' }));
    expect(await jobOf(ws, job.id)).toMatchObject({
      supplements_amount: 300,
      total_job_value: 10300,
    });
  });

  test('moving the invoice does not write the figure again over a change made on the job', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, { job_id: job.id, purpose: 'deductible' });
    await ok(ws.api.patch(`/jobs/${job.id}`, { deductible: 750 }));
    await markSent(ws, inv.id);
    await view(h, inv.id);
    await ok(ws.api.post('/payments', { job_id: job.id, invoice_id: inv.id, amount: 1000 }), 201);
    await voidIt(ws, inv.id);
    expect((await jobOf(ws, job.id)).deductible).toBe(750);
  });

  test('a contact-only invoice with a purpose touches no job', async () => {
    const { ws } = await fresh();
    const contact = await newContact(ws);
    const job = await newJob(ws, { homeowner_id: contact.id });
    const inv = await newInvoice(ws, { contact_id: contact.id, purpose: 'deductible' });
    expect(inv.job_id).toBeNull();
    expect((await jobOf(ws, job.id)).deductible).toBeNull();
  });
});

describe('the lines of an invoice come to at most $1,000,000,000 (decisions.md, Money)', () => {
  test('past it, credits counted as their size, POST and PATCH are 400 line_items and nothing is written', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const big = { name: 'Big', quantity: 1000, unit_price: 1_000_000, taxable: true };
    const over = await ws.api.post('/invoices', {
      job_id: job.id,
      line_items: [big, { name: 'Cent', unit_price: 0.01 }],
    });
    expectError(over, 400, 'invalid_request', 'line_items');
    const credits = await ws.api.post('/invoices', {
      job_id: job.id,
      line_items: [big, { ...big, unit_price: -1_000_000 }],
    });
    expectError(credits, 400, 'invalid_request', 'line_items');
    expect(await listed(ws)).toEqual([]);

    const most = await newInvoice(ws, { job_id: job.id, line_items: [big], tax_rate: 100 });
    expect(most).toMatchObject({ subtotal: 1_000_000_000, total_amount: 2_000_000_000 });
    const patched = await ws.api.patch(`/invoices/${most.id}`, {
      line_items: [big, { name: 'Cent', unit_price: 0.01 }],
    });
    expectError(patched, 400, 'invalid_request', 'line_items');
    expect((await invoiceOf(ws, most.id)).subtotal).toBe(1_000_000_000);
  });
});
