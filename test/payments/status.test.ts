import { describe, expect, test } from 'vitest';
import {
  advance,
  centralDate,
  expectError,
  fresh,
  get,
  invoiceOf,
  jobOf,
  newInvoice,
  newJob,
  nowMs,
  ok,
  pay,
  setStatus,
  UNKNOWN,
} from '../invoices/setup';

// PATCH /__admin/payments/{id} {status, date_received?}: DESIGN.md, control API (payment status
// moves); decisions.md, Payments (any status to any other; a payment keeps the date_received it
// was recorded with unless the move names the day the money came in; date_deposited set when it
// becomes deposited without one; the invoice it names is worked out again; what counts as
// received).

const STATUSES = ['expected', 'received', 'sent_to_mortgage', 'endorsed', 'deposited'];

describe('PATCH /__admin/payments/{id}', () => {
  // decisions.md, Payments: the refunds would take the invoice below what it ever received.
  test('a payment with refunds against it cannot go back to expected: 409, nothing moves', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 2000 });
    const inv = await newInvoice(ws, { job_id: job.id });
    const p = await pay(ws, { job_id: job.id, invoice_id: inv.id, amount: 100 });
    await ok(h.admin.post(`/payments/${p.id}/refund`, { amount: 40 }));
    const [jobBefore, invBefore] = [await jobOf(ws, job.id), await invoiceOf(ws, inv.id)];
    expectError(await h.admin.patch(`/payments/${p.id}`, { status: 'expected' }), 409, 'conflict');
    expect(await get(ws.api, `/payments/${p.id}`)).toEqual(p);
    expect(await jobOf(ws, job.id)).toEqual(jobBefore);
    expect(await invoiceOf(ws, inv.id)).toEqual(invBefore);
    expect(invBefore.amount_paid).toBe(60);
    // Its other moves stay open.
    expect((await ok(h.admin.patch(`/payments/${p.id}`, { status: 'deposited' }))).status).toBe(
      'deposited',
    );
  });

  test('expected → received: it keeps its date and counts on the job and the invoice', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 2000 });
    const inv = await newInvoice(ws, { job_id: job.id });
    const p = await pay(ws, {
      job_id: job.id,
      invoice_id: inv.id,
      amount: 600,
      status: 'expected',
      payer_type: 'insurance',
    });
    expect((await jobOf(ws, job.id)).amount_received).toBe(0);
    await advance(h, 5);
    const before = await nowMs(h);
    const res = await h.admin.patch(`/payments/${p.id}`, { status: 'received' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ...p, status: 'received', updated_at: expect.any(String) });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(before);
    expect(await get(ws.api, `/payments/${p.id}`)).toEqual(res.body);
    expect(await jobOf(ws, job.id)).toMatchObject({ amount_received: 600, balance_due: 1400 });
    expect(await invoiceOf(ws, inv.id)).toMatchObject({
      amount_paid: 600,
      balance_due: 400,
      status: 'partially_paid',
    });
  });

  test('a move may say the day the money came in: date_received', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 10, status: 'expected' });
    const moved = await ok(
      h.admin.patch(`/payments/${p.id}`, { status: 'received', date_received: '2026-04-02' }),
    );
    expect(moved).toMatchObject({ status: 'received', date_received: '2026-04-02' });
    expect(await get(ws.api, `/payments/${p.id}`)).toEqual(moved);
  });

  test('a date_received that is no date is 400 naming it, and nothing moves', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 10, status: 'expected' });
    const res = await h.admin.patch(
      `/payments/${p.id}`,
      { status: 'received', date_received: '2026-02-30' },
      { invalid: true },
    );
    expectError(res, 400, 'invalid_request', 'date_received');
    expect(await get(ws.api, `/payments/${p.id}`)).toEqual(p);
  });

  test('a date_received already known is kept', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, {
      job_id: job.id,
      amount: 10,
      status: 'expected',
      date_received: '2026-04-01',
    });
    expect((await setStatus(h, p.id, 'received')).date_received).toBe('2026-04-01');
  });

  test('deposited: date_deposited today', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 10, status: 'expected' });
    const today = centralDate(await nowMs(h));
    expect(await setStatus(h, p.id, 'deposited')).toMatchObject({
      status: 'deposited',
      date_received: today,
      date_deposited: today,
    });
    const q = await pay(ws, { job_id: job.id, amount: 10, date_deposited: '2026-05-05' });
    expect((await setStatus(h, q.id, 'deposited')).date_deposited).toBe('2026-05-05');
  });

  test('received → expected: it stops counting, and the invoice reopens', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 1000 });
    const inv = await newInvoice(ws, { job_id: job.id });
    const p = await pay(ws, { job_id: job.id, invoice_id: inv.id, amount: 1000 });
    expect((await invoiceOf(ws, inv.id)).status).toBe('paid');
    await setStatus(h, p.id, 'expected');
    expect(await jobOf(ws, job.id)).toMatchObject({ amount_received: 0, balance_due: 1000 });
    expect(await invoiceOf(ws, inv.id)).toMatchObject({
      status: 'draft',
      amount_paid: 0,
      paid_at: null,
    });
  });

  test.each(
    STATUSES.flatMap((from) => STATUSES.filter((to) => to !== from).map((to) => [from, to])),
  )('any status to any other: %s → %s', async (from, to) => {
    const { h, ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 1000 });
    const p = await pay(ws, { job_id: job.id, amount: 100, status: from });
    expect((await setStatus(h, p.id, to as string)).status).toBe(to);
    expect((await jobOf(ws, job.id)).amount_received).toBe(to === 'expected' ? 0 : 100);
  });

  test('the status it has already: answered unchanged', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 10 });
    await advance(h, 5);
    expect(await setStatus(h, p.id, 'received')).toEqual(p);
  });

  test('an unknown status: 400 field status, the payment unchanged', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 10 });
    const res = await h.admin.patch(`/payments/${p.id}`, { status: 'cleared' }, { invalid: true });
    expectError(res, 400, 'invalid_request', 'status');
    expect(await get(ws.api, `/payments/${p.id}`)).toEqual(p);
  });

  test('no status: 400 field status', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const p = await pay(ws, { job_id: job.id, amount: 10 });
    const res = await h.admin.patch(`/payments/${p.id}`, {}, { invalid: true });
    expectError(res, 400, 'invalid_request', 'status');
  });

  test('an unknown payment: 404', async () => {
    const { h } = await fresh();
    expectError(
      await h.admin.patch(`/payments/${UNKNOWN}`, { status: 'received' }),
      404,
      'not_found',
    );
  });

  test('a refund can be moved too, and it still nets', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 1000 });
    const p = await pay(ws, { job_id: job.id, amount: 500 });
    const r = await ok(h.admin.post(`/payments/${p.id}/refund`, { amount: 100 }));
    expect((await setStatus(h, r.id, 'deposited')).amount).toBe(-100);
    expect((await jobOf(ws, job.id)).amount_received).toBe(400);
  });
});
