import { describe, expect, test } from 'vitest';
import {
  advance,
  expectError,
  fresh,
  get,
  idsOf,
  invoiceIn,
  invoiceOf,
  markSent,
  newInvoice,
  newJob,
  nowMs,
  ok,
  pay,
  refund,
  setStatus,
  UNKNOWN,
  view,
  voidIt,
  writeOff,
} from './setup';

// Invoice status moves: spec, States and transitions (mark_sent, void, payments); decisions.md,
// Invoices (Status moves, Payments move the status, Control API view and bad_debt).

const PAY_PAGE = /^http:\/\/localhost\/\S+$/;

describe('POST /invoices/{id}/mark_sent', () => {
  test('a draft goes out: sent, sent_at now, the pay page turns on', async () => {
    const { h, ws } = await fresh();
    const inv = await newInvoice(ws, { job_id: (await newJob(ws)).id });
    expect(inv.payment_url).toBeNull();
    await advance(h, 5);
    const before = await nowMs(h);
    const res = await ws.api.post(`/invoices/${inv.id}/mark_sent`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      ...inv,
      status: 'sent',
      sent_at: expect.any(String),
      payment_url: expect.stringMatching(PAY_PAGE),
      updated_at: expect.any(String),
    });
    expect(Date.parse(res.body.sent_at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(res.body.sent_at));
    expect(await invoiceOf(ws, inv.id)).toEqual(res.body);
  });

  test.each(['sent', 'viewed', 'partially_paid', 'paid', 'overdue', 'bad_debt'] as const)(
    'on one already out (%s) it changes nothing',
    async (status) => {
      const { h, ws } = await fresh();
      const inv = await invoiceIn(h, ws, status);
      await advance(h, 5);
      expect(await markSent(ws, inv.id)).toEqual(inv);
      expect(await invoiceOf(ws, inv.id)).toEqual(inv);
    },
  );

  test('on a void invoice it is 409 conflict, and the invoice stays void', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'void');
    expectError(await ws.api.post(`/invoices/${inv.id}/mark_sent`), 409, 'conflict');
    expect(await invoiceOf(ws, inv.id)).toEqual(inv);
  });

  test('a read-only key is 403; an unknown invoice 404', async () => {
    const { ws } = await fresh();
    const inv = await newInvoice(ws, { job_id: (await newJob(ws)).id });
    expectError(await ws.read.post(`/invoices/${inv.id}/mark_sent`), 403, 'forbidden');
    expect(await invoiceOf(ws, inv.id)).toEqual(inv);
    expectError(await ws.api.post(`/invoices/${UNKNOWN}/mark_sent`), 404, 'not_found');
  });

  test('a draft with money on it keeps its payment status when it goes out', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, { job_id: job.id });
    await pay(ws, { job_id: job.id, invoice_id: inv.id, amount: 200 });
    const sent = await markSent(ws, inv.id);
    expect(sent).toMatchObject({ status: 'partially_paid', sent_at: expect.any(String) });
  });
});

describe('POST /invoices/{id}/void', () => {
  test.each(['draft', 'sent', 'viewed', 'partially_paid', 'paid', 'overdue', 'bad_debt'] as const)(
    'from %s: void, no pay page',
    async (status) => {
      const { h, ws } = await fresh();
      const inv = await invoiceIn(h, ws, status);
      const res = await voidIt(ws, inv.id);
      expect(res).toMatchObject({ status: 'void', payment_url: null });
      expect(await invoiceOf(ws, inv.id)).toEqual(res);
    },
  );

  test('voiding twice answers 200 with the same invoice', async () => {
    const { h, ws } = await fresh();
    const inv = await newInvoice(ws, { job_id: (await newJob(ws)).id });
    const first = await voidIt(ws, inv.id);
    await advance(h, 5);
    expect(await voidIt(ws, inv.id)).toEqual(first);
  });

  test('payments already made stay recorded', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 5000 });
    const inv = await newInvoice(ws, { job_id: job.id });
    await markSent(ws, inv.id);
    const p = await pay(ws, { job_id: job.id, invoice_id: inv.id, amount: 400 });
    const voided = await voidIt(ws, inv.id);
    expect(voided).toMatchObject({ status: 'void', amount_paid: 400, balance_due: 600 });
    expect(idsOf(await get(ws.api, '/payments'))).toEqual([p.id]);
    expect((await get(ws.api, `/jobs/${job.id}`)).amount_received).toBe(400);
  });

  // decisions.md: paid_at is cleared if a refund reopens the invoice; voiding reopens nothing.
  test('a paid invoice voided keeps its paid_at and its money', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'paid');
    expect(inv.paid_at).not.toBeNull();
    expect(await voidIt(ws, inv.id)).toMatchObject({
      status: 'void',
      paid_at: inv.paid_at,
      amount_paid: 1000,
      balance_due: 0,
    });
  });

  test('a void invoice takes no payment: 400 invoice_id, nothing recorded', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws, { rcv_amount: 5000 });
    const inv = await newInvoice(ws, { job_id: job.id });
    await voidIt(ws, inv.id);
    const res = await ws.api.post('/payments', { job_id: job.id, invoice_id: inv.id, amount: 10 });
    expectError(res, 400, 'invalid_request', 'invoice_id');
    expect((await get(ws.api, '/payments')).data).toEqual([]);
    expect((await get(ws.api, `/jobs/${job.id}`)).amount_received).toBe(0);
    expect((await invoiceOf(ws, inv.id)).amount_paid).toBe(0);
  });

  test('a read-only key is 403 and the invoice is not voided', async () => {
    const { ws } = await fresh();
    const inv = await newInvoice(ws, { job_id: (await newJob(ws)).id });
    expectError(await ws.read.post(`/invoices/${inv.id}/void`), 403, 'forbidden');
    expect((await invoiceOf(ws, inv.id)).status).toBe('draft');
  });
});

describe('payments move the status', () => {
  test('part of the total: partially_paid, amount_paid and balance_due follow', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'sent');
    await pay(ws, { job_id: inv.job_id, invoice_id: inv.id, amount: 250.25 });
    expect(await invoiceOf(ws, inv.id)).toMatchObject({
      status: 'partially_paid',
      amount_paid: 250.25,
      balance_due: 749.75,
      paid_at: null,
    });
  });

  test('the rest of it: paid, with paid_at; the pay page turns off', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'sent');
    await pay(ws, { job_id: inv.job_id, invoice_id: inv.id, amount: 600 });
    const before = await nowMs(h);
    await pay(ws, { job_id: inv.job_id, invoice_id: inv.id, amount: 400 });
    const paid = await invoiceOf(ws, inv.id);
    expect(paid).toMatchObject({
      status: 'paid',
      amount_paid: 1000,
      balance_due: 0,
      payment_url: null,
    });
    expect(Date.parse(paid.paid_at)).toBeGreaterThanOrEqual(before);
  });

  test('an overpayment is paid, and balance_due stays 0', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'sent');
    await pay(ws, { job_id: inv.job_id, invoice_id: inv.id, amount: 1200 });
    expect(await invoiceOf(ws, inv.id)).toMatchObject({
      status: 'paid',
      amount_paid: 1200,
      balance_due: 0,
    });
  });

  test('a refund reopens a paid invoice: partially_paid again, paid_at null', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'sent');
    const p = await pay(ws, { job_id: inv.job_id, invoice_id: inv.id, amount: 1000 });
    expect((await invoiceOf(ws, inv.id)).paid_at).not.toBeNull();
    await refund(h, p.id, { amount: 300 });
    expect(await invoiceOf(ws, inv.id)).toMatchObject({
      status: 'partially_paid',
      amount_paid: 700,
      balance_due: 300,
      paid_at: null,
    });
  });

  test('refunded in full, nothing is received: back where it stood (viewed)', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'viewed');
    const p = await pay(ws, { job_id: inv.job_id, invoice_id: inv.id, amount: 1000 });
    await refund(h, p.id);
    expect(await invoiceOf(ws, inv.id)).toMatchObject({
      status: 'viewed',
      amount_paid: 0,
      balance_due: 1000,
      paid_at: null,
    });
  });

  test('paid again after a refund: paid, with a new paid_at', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'sent');
    const p = await pay(ws, { job_id: inv.job_id, invoice_id: inv.id, amount: 1000 });
    const firstPaidAt = (await invoiceOf(ws, inv.id)).paid_at;
    await refund(h, p.id, { amount: 1 });
    await advance(h, 60);
    await pay(ws, { job_id: inv.job_id, invoice_id: inv.id, amount: 1 });
    const paid = await invoiceOf(ws, inv.id);
    expect(paid.status).toBe('paid');
    expect(Date.parse(paid.paid_at)).toBeGreaterThan(Date.parse(firstPaidAt));
  });

  test('an expected payment is not received: the status stays until it comes in', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'sent');
    const p = await pay(ws, {
      job_id: inv.job_id,
      invoice_id: inv.id,
      amount: 1000,
      status: 'expected',
    });
    expect(await invoiceOf(ws, inv.id)).toMatchObject({
      status: 'sent',
      amount_paid: 0,
      balance_due: 1000,
    });
    await setStatus(h, p.id, 'received');
    expect(await invoiceOf(ws, inv.id)).toMatchObject({
      status: 'paid',
      amount_paid: 1000,
      balance_due: 0,
    });
    // And back to expected: it no longer counts.
    await setStatus(h, p.id, 'expected');
    expect(await invoiceOf(ws, inv.id)).toMatchObject({
      status: 'sent',
      amount_paid: 0,
      paid_at: null,
    });
  });

  test.each(['sent_to_mortgage', 'endorsed', 'deposited'])(
    'a payment %s counts as received',
    async (status) => {
      const { h, ws } = await fresh();
      const inv = await invoiceIn(h, ws, 'sent');
      await pay(ws, { job_id: inv.job_id, invoice_id: inv.id, amount: 1000, status });
      expect((await invoiceOf(ws, inv.id)).status).toBe('paid');
    },
  );

  test('a payment on a draft counts: partially_paid, then paid', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, { job_id: job.id });
    await pay(ws, { job_id: job.id, invoice_id: inv.id, amount: 100 });
    expect(await invoiceOf(ws, inv.id)).toMatchObject({
      status: 'partially_paid',
      amount_paid: 100,
      sent_at: null,
    });
    await pay(ws, { job_id: job.id, invoice_id: inv.id, amount: 900 });
    expect((await invoiceOf(ws, inv.id)).status).toBe('paid');
  });

  test('a payment without invoice_id is never applied to an invoice', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'sent');
    await pay(ws, { job_id: inv.job_id, amount: 1000 });
    expect(await invoiceOf(ws, inv.id)).toEqual(inv);
  });

  test('a written-off invoice stays bad_debt when paid in part, and is paid when paid in full', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'bad_debt');
    await pay(ws, { job_id: inv.job_id, invoice_id: inv.id, amount: 500 });
    expect(await invoiceOf(ws, inv.id)).toMatchObject({ status: 'bad_debt', amount_paid: 500 });
    await pay(ws, { job_id: inv.job_id, invoice_id: inv.id, amount: 500 });
    expect(await invoiceOf(ws, inv.id)).toMatchObject({ status: 'paid', balance_due: 0 });
  });

  // decisions.md, Invoices: written off, it is bad debt again if a refund reopens it.
  test('a written-off invoice paid in full and then refunded in part is bad_debt again', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'bad_debt');
    const p = await pay(ws, { job_id: inv.job_id, invoice_id: inv.id, amount: inv.balance_due });
    expect((await invoiceOf(ws, inv.id)).status).toBe('paid');
    await ok(h.admin.post(`/payments/${p.id}/refund`, { amount: 10 }));
    expect(await invoiceOf(ws, inv.id)).toMatchObject({ status: 'bad_debt', paid_at: null });
  });

  test('payments add up in exact cents: 0.1 + 0.2 paid on 0.3 is paid', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, {
      job_id: job.id,
      line_items: [{ name: 'a', unit_price: 0.3 }],
    });
    await pay(ws, { job_id: job.id, invoice_id: inv.id, amount: 0.1 });
    await pay(ws, { job_id: job.id, invoice_id: inv.id, amount: 0.2 });
    expect(await invoiceOf(ws, inv.id)).toMatchObject({
      status: 'paid',
      amount_paid: 0.3,
      balance_due: 0,
    });
  });

  test('a zero-total invoice is not paid by nothing: it stays where it stood', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, {
      job_id: job.id,
      line_items: [{ name: 'free', unit_price: 0 }],
    });
    expect(await markSent(ws, inv.id)).toMatchObject({ status: 'sent', balance_due: 0 });
  });
});

describe('POST /__admin/invoices/{id}/view', () => {
  test('the homeowner opens a sent invoice: viewed, first_viewed_at', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'sent');
    await advance(h, 5);
    const before = await nowMs(h);
    const res = await view(h, inv.id);
    expect(res).toMatchObject({ status: 'viewed', first_viewed_at: expect.any(String) });
    expect(Date.parse(res.first_viewed_at)).toBeGreaterThanOrEqual(before);
    expect(res.payment_url).toEqual(expect.stringMatching(PAY_PAGE));
    expect(await invoiceOf(ws, inv.id)).toEqual(res);
  });

  test('first_viewed_at is set once: a second view changes nothing', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'viewed');
    await advance(h, 60);
    expect(await view(h, inv.id)).toEqual(inv);
  });

  test('a partially paid invoice opened stays partially_paid, first_viewed_at set', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'partially_paid');
    expect(await view(h, inv.id)).toMatchObject({
      status: 'partially_paid',
      first_viewed_at: expect.any(String),
    });
  });

  test('a draft was never sent: 409, unchanged', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'draft');
    expectError(await h.admin.post(`/invoices/${inv.id}/view`), 409, 'conflict');
    expect(await invoiceOf(ws, inv.id)).toEqual(inv);
  });

  test('an unknown invoice is 404', async () => {
    const { h } = await fresh();
    expectError(await h.admin.post(`/invoices/${UNKNOWN}/view`), 404, 'not_found');
  });

  test('after a view, a refund in full goes back to viewed', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'sent');
    const p = await pay(ws, { job_id: inv.job_id, invoice_id: inv.id, amount: 100 });
    await view(h, inv.id);
    await refund(h, p.id);
    expect((await invoiceOf(ws, inv.id)).status).toBe('viewed');
  });
});

describe('POST /__admin/invoices/{id}/bad_debt', () => {
  test.each(['sent', 'viewed', 'partially_paid', 'overdue'] as const)(
    'from %s: bad_debt',
    async (status) => {
      const { h, ws } = await fresh();
      const inv = await invoiceIn(h, ws, status);
      const res = await writeOff(h, inv.id);
      expect(res).toMatchObject({
        status: 'bad_debt',
        amount_paid: inv.amount_paid,
        balance_due: inv.balance_due,
      });
      expect(await invoiceOf(ws, inv.id)).toEqual(res);
    },
  );

  test.each(['draft', 'paid', 'void'] as const)('from %s: 409, unchanged', async (status) => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, status);
    expectError(await h.admin.post(`/invoices/${inv.id}/bad_debt`), 409, 'conflict');
    expect(await invoiceOf(ws, inv.id)).toEqual(inv);
  });

  test('one already written off is answered as it is', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'bad_debt');
    await advance(h, 5);
    expect(await writeOff(h, inv.id)).toEqual(inv);
  });

  test('a written-off invoice can still be voided', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'bad_debt');
    expect((await voidIt(ws, inv.id)).status).toBe('void');
  });

  test('an unknown invoice is 404', async () => {
    const { h } = await fresh();
    expectError(await h.admin.post(`/invoices/${UNKNOWN}/bad_debt`), 404, 'not_found');
  });
});

describe('the control API answers the invoice as GET /v1 does', () => {
  test('view and bad_debt answer exactly the record GET returns', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'sent');
    const viewed = await ok(h.admin.post(`/invoices/${inv.id}/view`));
    expect(viewed).toEqual(await invoiceOf(ws, inv.id));
    const written = await ok(h.admin.post(`/invoices/${inv.id}/bad_debt`));
    expect(written).toEqual(await invoiceOf(ws, inv.id));
  });
});
