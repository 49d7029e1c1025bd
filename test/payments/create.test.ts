import { describe, expect, test } from 'vitest';
import {
  centralDate,
  expectError,
  fresh,
  get,
  invoiceOf,
  jobOf,
  markSent,
  newContact,
  newInvoice,
  newJob,
  nowMs,
  ok,
  pay,
  toLateCentralEvening,
  UNKNOWN,
} from '../invoices/setup';

// POST /payments: spec, Payments and Payment; decisions.md, Payments (defaults, what counts as
// received, invoice_id on the payment's job) and Money (kept to the cent, exact sums).

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('POST /payments records a payment', () => {
  test('201 with the whole Payment, its defaults filled; GET agrees', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const before = await nowMs(h);
    const res = await ws.api.post('/payments', { job_id: job.id, amount: 1500 });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      object: 'payment',
      job_id: job.id,
      invoice_id: null,
      amount: 1500,
      payment_type: 'other',
      payer_type: 'homeowner',
      payment_method: 'check',
      status: 'received',
      check_number: null,
      date_received: centralDate(before),
      date_deposited: null,
      notes: null,
      is_refund: false,
      refund_of_payment_id: null,
      online: false,
      created_at: expect.stringMatching(ISO),
      updated_at: res.body.created_at,
      url: `http://localhost/payments/${res.body.id}`,
    });
    expect(Date.parse(res.body.created_at)).toBeGreaterThanOrEqual(before);
    expect(await get(ws.api, `/payments/${res.body.id}`)).toEqual(res.body);
  });

  test('every field sent is kept', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, { job_id: job.id });
    const p = await pay(ws, {
      job_id: job.id,
      invoice_id: inv.id,
      amount: 420.5,
      payment_type: 'deductible',
      payer_type: 'mortgage_company',
      payment_method: 'ach',
      status: 'deposited',
      check_number: '  10442 ',
      date_received: '2026-03-02',
      date_deposited: '2026-03-04',
      notes: 'Endorsed by the bank',
    });
    expect(p).toMatchObject({
      invoice_id: inv.id,
      amount: 420.5,
      payment_type: 'deductible',
      payer_type: 'mortgage_company',
      payment_method: 'ach',
      status: 'deposited',
      check_number: '10442',
      date_received: '2026-03-02',
      date_deposited: '2026-03-04',
      notes: 'Endorsed by the bank',
    });
  });

  test('date_received defaults to today in US Central time, not UTC', async () => {
    const { h, ws } = await fresh();
    const today = await toLateCentralEvening(h);
    const job = await newJob(ws);
    expect((await pay(ws, { job_id: job.id, amount: 10 })).date_received).toBe(today);
  });

  // spec, POST /payments: "date_received (date; default today in US Central time)", whatever the
  // status: an expected payment is dated too.
  test('an expected payment defaults date_received to today in US Central time too', async () => {
    const { h, ws } = await fresh();
    const today = await toLateCentralEvening(h);
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 10, status: 'expected' });
    expect(p).toMatchObject({ status: 'expected', date_received: today });
    const dated = await pay(ws, {
      job_id: job.id,
      amount: 10,
      status: 'expected',
      date_received: '2026-04-01',
    });
    expect(dated.date_received).toBe('2026-04-01');
  });

  test('blank check_number and notes are null', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 10, check_number: '  ', notes: '' });
    expect(p).toMatchObject({ check_number: null, notes: null });
  });

  test('null for an optional field is taken as not sent: its default', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, {
      job_id: job.id,
      amount: 10,
      invoice_id: null,
      payment_type: null,
      payer_type: null,
      payment_method: null,
      status: null,
      date_received: null,
    });
    expect(p).toMatchObject({
      invoice_id: null,
      payment_type: 'other',
      payer_type: 'homeowner',
      payment_method: 'check',
      status: 'received',
      date_received: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  test.each([
    [10.005, 10.01],
    [0.015, 0.02],
    [99.994, 99.99],
    [1e9, 1e9],
  ])('amount %s is kept to the cent: %s', async (amount, kept) => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    expect((await pay(ws, { job_id: job.id, amount })).amount).toBe(kept);
  });

  test('a job_id in upper case names the job', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    expect((await pay(ws, { job_id: job.id.toUpperCase(), amount: 1 })).job_id).toBe(job.id);
  });
});

describe('POST /payments refuses', () => {
  test.each([
    ['no job_id', { amount: 10 }, 'job_id'],
    ['a job_id that is no uuid', { job_id: 'J-1001', amount: 10 }, 'job_id'],
    ['an unknown job', { job_id: UNKNOWN, amount: 10 }, 'job_id'],
    ['no amount', { job: true }, 'amount'],
    ['amount 0', { job: true, amount: 0 }, 'amount'],
    ['a negative amount', { job: true, amount: -25 }, 'amount'],
    ['an amount that is 0 to the cent', { job: true, amount: 0.004 }, 'amount'],
    ['an amount over a billion', { job: true, amount: 1e9 + 1 }, 'amount'],
    ['an amount as text', { job: true, amount: '10' }, 'amount'],
    ['an unknown payment_type', { job: true, amount: 1, payment_type: 'cash' }, 'payment_type'],
    ['an unknown payer_type', { job: true, amount: 1, payer_type: 'bank' }, 'payer_type'],
    [
      'an unknown payment_method',
      { job: true, amount: 1, payment_method: 'crypto' },
      'payment_method',
    ],
    ['an unknown status', { job: true, amount: 1, status: 'cleared' }, 'status'],
    [
      'an impossible date_received',
      { job: true, amount: 1, date_received: '2026-02-30' },
      'date_received',
    ],
    [
      'a date_deposited that is no date',
      { job: true, amount: 1, date_deposited: 'today' },
      'date_deposited',
    ],
    ['an unknown invoice', { job: true, amount: 1, invoice_id: UNKNOWN }, 'invoice_id'],
  ])('%s: 400 naming the field, nothing recorded', async (_name, body, field) => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 5000 });
    const { job: withJob, ...rest } = body as Record<string, unknown>;
    const sent = withJob ? { job_id: job.id, ...rest } : rest;
    const res = await ws.api.post('/payments', sent, { invalid: true });
    expectError(res, 400, 'invalid_request', field);
    expect((await get(ws.api, '/payments')).data).toEqual([]);
    expect(await jobOf(ws, job.id)).toMatchObject({ amount_received: 0, balance_due: 5000 });
  });

  test('an invoice of another job: 400 invoice_id, nothing recorded anywhere', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 5000 });
    const other = await newJob(ws, { name: 'Other', rcv_amount: 3000 });
    const inv = await newInvoice(ws, { job_id: other.id });
    await markSent(ws, inv.id);
    const res = await ws.api.post('/payments', { job_id: job.id, invoice_id: inv.id, amount: 10 });
    expectError(res, 400, 'invalid_request', 'invoice_id');
    expect((await get(ws.api, '/payments')).data).toEqual([]);
    expect((await get(ws.api, `/jobs/${job.id}/payments`)).data).toEqual([]);
    expect((await jobOf(ws, job.id)).amount_received).toBe(0);
    expect((await jobOf(ws, other.id)).amount_received).toBe(0);
    expect(await invoiceOf(ws, inv.id)).toMatchObject({ status: 'sent', amount_paid: 0 });
  });

  test('an invoice billed to a contact alone is on no job: 400 invoice_id', async () => {
    const { ws } = await fresh();
    const contact = await newContact(ws);
    const job = await newJob(ws, { homeowner_id: contact.id });
    const inv = await newInvoice(ws, { contact_id: contact.id });
    const res = await ws.api.post('/payments', { job_id: job.id, invoice_id: inv.id, amount: 10 });
    expectError(res, 400, 'invalid_request', 'invoice_id');
    expect((await get(ws.api, '/payments')).data).toEqual([]);
  });

  test("another workspace's job and invoice are unknown here", async () => {
    const { h, ws } = await fresh();
    const theirs = await h.workspace();
    const theirJob = await newJob(theirs);
    const theirInvoice = await newInvoice(theirs, { job_id: theirJob.id });
    const job = await newJob(ws);
    expectError(
      await ws.api.post('/payments', { job_id: theirJob.id, amount: 10 }),
      400,
      'invalid_request',
      'job_id',
    );
    expectError(
      await ws.api.post('/payments', { job_id: job.id, invoice_id: theirInvoice.id, amount: 10 }),
      400,
      'invalid_request',
      'invoice_id',
    );
    expect((await get(ws.api, '/payments')).data).toEqual([]);
    expect((await get(theirs.api, '/payments')).data).toEqual([]);
  });

  test('a deleted job takes no payment: 400 job_id', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    await ok(ws.api.delete(`/jobs/${job.id}`));
    expectError(
      await ws.api.post('/payments', { job_id: job.id, amount: 10 }),
      400,
      'invalid_request',
      'job_id',
    );
  });

  test('a read-only key is 403 forbidden and records nothing', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 100 });
    expectError(await ws.read.post('/payments', { job_id: job.id, amount: 10 }), 403, 'forbidden');
    expect((await get(ws.api, '/payments')).data).toEqual([]);
    expect((await jobOf(ws, job.id)).amount_received).toBe(0);
  });
});

describe('the money follows', () => {
  test("the job's amount_received and balance_due; total_job_value does not move", async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 12000, supplements_amount: 500 });
    await pay(ws, { job_id: job.id, amount: 4000, payer_type: 'insurance', payment_type: 'acv' });
    expect(await jobOf(ws, job.id)).toMatchObject({
      total_job_value: 12500,
      amount_received: 4000,
      balance_due: 8500,
    });
    await pay(ws, { job_id: job.id, amount: 1000, payment_type: 'deductible' });
    expect(await jobOf(ws, job.id)).toMatchObject({ amount_received: 5000, balance_due: 7500 });
  });

  test("the invoice's amount_paid, balance_due and status", async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, { job_id: job.id });
    await markSent(ws, inv.id);
    await pay(ws, { job_id: job.id, invoice_id: inv.id, amount: 300 });
    expect(await invoiceOf(ws, inv.id)).toMatchObject({
      status: 'partially_paid',
      amount_paid: 300,
      balance_due: 700,
    });
  });

  test('0.1 + 0.2 is 0.3 exactly, on the job and on the invoice', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 1 });
    const inv = await newInvoice(ws, { job_id: job.id });
    await pay(ws, { job_id: job.id, invoice_id: inv.id, amount: 0.1 });
    await pay(ws, { job_id: job.id, invoice_id: inv.id, amount: 0.2 });
    expect(await jobOf(ws, job.id)).toMatchObject({ amount_received: 0.3, balance_due: 0.7 });
    expect(await invoiceOf(ws, inv.id)).toMatchObject({ amount_paid: 0.3, balance_due: 999.7 });
  });

  test('an expected payment counts toward nothing', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 1000 });
    const inv = await newInvoice(ws, { job_id: job.id });
    await pay(ws, { job_id: job.id, invoice_id: inv.id, amount: 700, status: 'expected' });
    expect(await jobOf(ws, job.id)).toMatchObject({ amount_received: 0, balance_due: 1000 });
    expect(await invoiceOf(ws, inv.id)).toMatchObject({ amount_paid: 0, status: 'draft' });
  });

  test.each(['received', 'sent_to_mortgage', 'endorsed', 'deposited'])(
    'a payment %s counts as received',
    async (status) => {
      const { ws } = await fresh();
      const job = await newJob(ws, { rcv_amount: 1000 });
      await pay(ws, { job_id: job.id, amount: 250, status });
      expect((await jobOf(ws, job.id)).amount_received).toBe(250);
    },
  );
});
