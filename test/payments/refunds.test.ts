import { describe, expect, test } from 'vitest';
import {
  centralDate,
  expectError,
  fresh,
  get,
  idsOf,
  invoiceOf,
  jobOf,
  markSent,
  newInvoice,
  newJob,
  nowMs,
  pay,
  refund,
  setStatus,
  toLateCentralEvening,
  UNKNOWN,
} from '../invoices/setup';

// POST /__admin/payments/{id}/refund: DESIGN.md, control API (a refund payment: negative amount,
// is_refund, refund_of_payment_id); decisions.md, Payments (Refunds: default all that is left;
// more is 400 amount; a refund, an expected payment, or one refunded in full is 409); spec,
// Payment ("summing amount gives the net").

describe('a refund is its own payment', () => {
  test('negative, is_refund, refund_of_payment_id, with the original job, invoice, type, payer and method', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, { job_id: job.id });
    const original = await pay(ws, {
      job_id: job.id,
      invoice_id: inv.id,
      amount: 800,
      payment_type: 'deductible',
      payer_type: 'homeowner',
      payment_method: 'card',
      status: 'deposited',
      check_number: '991',
      date_received: '2026-02-01',
      date_deposited: '2026-02-03',
      notes: 'paid at the door',
    });
    const before = await nowMs(h);
    const res = await h.admin.post(`/payments/${original.id}/refund`, { amount: 300 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      object: 'payment',
      job_id: job.id,
      invoice_id: inv.id,
      amount: -300,
      payment_type: 'deductible',
      payer_type: 'homeowner',
      payment_method: 'card',
      status: 'received',
      check_number: null,
      date_received: centralDate(before),
      date_deposited: null,
      notes: null,
      is_refund: true,
      refund_of_payment_id: original.id,
      online: false,
      created_at: expect.any(String),
      updated_at: res.body.created_at,
      url: `http://localhost/payments/${res.body.id}`,
    });
    expect(res.body.id).not.toBe(original.id);
    expect(Date.parse(res.body.created_at)).toBeGreaterThanOrEqual(before);
    // GET /v1 answers the same record; the original is unchanged.
    expect(await get(ws.api, `/payments/${res.body.id}`)).toEqual(res.body);
    expect(await get(ws.api, `/payments/${original.id}`)).toEqual(original);
  });

  test('dated today in US Central time', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 50 });
    const today = await toLateCentralEvening(h);
    expect((await refund(h, p.id)).date_received).toBe(today);
  });

  test('without an amount it gives back all that is left', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 1000 });
    expect((await refund(h, p.id)).amount).toBe(-1000);
    const q = await pay(ws, { job_id: job.id, amount: 1000 });
    await refund(h, q.id, { amount: 250.25 });
    expect((await refund(h, q.id)).amount).toBe(-749.75);
  });

  test('an empty body is no amount: all that is left', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 75 });
    expect((await refund(h, p.id, {})).amount).toBe(-75);
  });

  test('refunds in cents add up exactly: 0.3 less 0.1 leaves 0.2', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 0.3 });
    await refund(h, p.id, { amount: 0.1 });
    expect((await refund(h, p.id)).amount).toBe(-0.2);
  });

  test('summing amounts gives the net; the job and the invoice follow', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 2000 });
    const inv = await newInvoice(ws, { job_id: job.id });
    await markSent(ws, inv.id);
    const p = await pay(ws, { job_id: job.id, invoice_id: inv.id, amount: 1000 });
    await pay(ws, { job_id: job.id, amount: 500 });
    expect((await invoiceOf(ws, inv.id)).status).toBe('paid');
    await refund(h, p.id, { amount: 199.99 });
    await refund(h, p.id, { amount: 0.01 });
    const all = (await get(ws.api, '/payments', { job_id: job.id })).data as { amount: number }[];
    const net = all.reduce((sum, x) => sum + Math.round(x.amount * 100), 0) / 100;
    expect(net).toBe(1300);
    expect(await jobOf(ws, job.id)).toMatchObject({ amount_received: 1300, balance_due: 700 });
    expect(await invoiceOf(ws, inv.id)).toMatchObject({
      status: 'partially_paid',
      amount_paid: 800,
      balance_due: 200,
      paid_at: null,
    });
  });

  test('a refund of a payment on the job alone touches no invoice', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 1000 });
    const inv = await newInvoice(ws, { job_id: job.id });
    const p = await pay(ws, { job_id: job.id, amount: 400 });
    const r = await refund(h, p.id, { amount: 100 });
    expect(r.invoice_id).toBeNull();
    expect(await invoiceOf(ws, inv.id)).toEqual(inv);
    expect((await jobOf(ws, job.id)).amount_received).toBe(300);
  });

  test('a refund is listed with the payments, newest first', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 400 });
    const r = await refund(h, p.id, { amount: 100 });
    expect(idsOf(await get(ws.api, '/payments'))).toEqual([r.id, p.id]);
    expect(idsOf(await get(ws.api, `/jobs/${job.id}/payments`))).toEqual([r.id, p.id]);
  });
});

describe('a refund is refused', () => {
  test('more than is left: 400 field amount, nothing recorded', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 100 });
    expectError(
      await h.admin.post(`/payments/${p.id}/refund`, { amount: 100.01 }),
      400,
      'invalid_request',
      'amount',
    );
    await refund(h, p.id, { amount: 60 });
    expectError(
      await h.admin.post(`/payments/${p.id}/refund`, { amount: 40.01 }),
      400,
      'invalid_request',
      'amount',
    );
    expect((await get(ws.api, '/payments')).data).toHaveLength(2);
    expect((await jobOf(ws, job.id)).amount_received).toBe(40);
  });

  test.each([
    ['0', 0],
    ['a negative amount', -10],
    ['an amount under half a cent', 0.004],
    ['an amount as text', '10'],
  ])('%s: 400 field amount', async (_name, amount) => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 100 });
    const res = await h.admin.post(`/payments/${p.id}/refund`, { amount }, { invalid: true });
    expectError(res, 400, 'invalid_request', 'amount');
    expect(idsOf(await get(ws.api, '/payments'))).toEqual([p.id]);
  });

  test('a refund of a refund: 409', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 100 });
    const r = await refund(h, p.id, { amount: 10 });
    expectError(await h.admin.post(`/payments/${r.id}/refund`, { amount: 1 }), 409, 'conflict');
    expectError(await h.admin.post(`/payments/${r.id}/refund`), 409, 'conflict');
    expect((await get(ws.api, '/payments')).data).toHaveLength(2);
  });

  test('an expected payment has nothing to refund: 409', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 100, status: 'expected' });
    expectError(await h.admin.post(`/payments/${p.id}/refund`), 409, 'conflict');
    expect(idsOf(await get(ws.api, '/payments'))).toEqual([p.id]);
  });

  test('a payment refunded in full: 409', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 100 });
    await refund(h, p.id);
    expectError(await h.admin.post(`/payments/${p.id}/refund`), 409, 'conflict');
    expectError(await h.admin.post(`/payments/${p.id}/refund`, { amount: 1 }), 409, 'conflict');
  });

  test('an unknown payment: 404', async () => {
    const { h } = await fresh();
    expectError(await h.admin.post(`/payments/${UNKNOWN}/refund`), 404, 'not_found');
  });

  test('a payment that moved back to expected has nothing received to refund: 409', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 100 });
    await setStatus(h, p.id, 'expected');
    expectError(await h.admin.post(`/payments/${p.id}/refund`), 409, 'conflict');
  });
});
