import { describe, expect, test } from 'vitest';
import {
  advance,
  expectError,
  fresh,
  get,
  idsOf,
  invoiceIn,
  invoiceOf,
  newContact,
  newInvoice,
  newJob,
  OUT,
  ok,
  UNKNOWN,
} from './setup';

// PATCH and DELETE /invoices/{id}: spec, Invoices and States and transitions ("Draft only";
// 409 otherwise); decisions.md, Invoices (PATCH and DELETE of anything but a draft are 409, and
// change nothing; discount_value 0 or null removes the discount).

const LINES = [
  { name: 'Shingles', quantity: 10, unit_price: 100, taxable: true },
  { name: 'Nails', quantity: 2, unit_price: 12.5, taxable: true },
  { name: 'Permit', unit_price: 75 },
];

describe('PATCH /invoices/{id} on a draft', () => {
  test('changes the fields sent and only those; updated_at moves', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, { job_id: job.id, title: 'Roof', notes: 'n', terms: 't' });
    await advance(h, 5);
    const res = await ws.api.patch(`/invoices/${inv.id}`, {
      title: 'Roof and gutters',
      due_date: '2099-12-31',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      ...inv,
      title: 'Roof and gutters',
      due_date: '2099-12-31',
      updated_at: expect.any(String),
    });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(inv.updated_at));
    expect(await invoiceOf(ws, inv.id)).toEqual(res.body);
  });

  test('line_items replace every line and the totals are recomputed', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, { job_id: job.id, line_items: LINES, tax_rate: 10 });
    // 1000 + 25 taxable, 75 not: tax 102.5
    expect(inv).toMatchObject({ subtotal: 1100, tax_amount: 102.5, total_amount: 1202.5 });
    const res = await ok(
      ws.api.patch(`/invoices/${inv.id}`, {
        line_items: [{ name: 'Gutters', quantity: 4, unit_price: 50, taxable: true }],
      }),
    );
    expect(res).toMatchObject({
      subtotal: 200,
      tax_amount: 20,
      total_amount: 220,
      balance_due: 220,
    });
  });

  test('a tax_rate change recomputes the tax; null takes the tax off', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, { job_id: job.id, tax_rate: 10 });
    expect(inv.tax_amount).toBe(100);
    const more = await ok(ws.api.patch(`/invoices/${inv.id}`, { tax_rate: 8.875 }));
    expect(more).toMatchObject({ tax_amount: 88.75, total_amount: 1088.75 });
    const none = await ok(ws.api.patch(`/invoices/${inv.id}`, { tax_rate: null }));
    expect(none).toMatchObject({ tax_amount: null, total_amount: 1000 });
  });

  test.each([0, null])('discount_value %s removes the discount', async (value) => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, {
      job_id: job.id,
      discount_type: 'percent',
      discount_value: 15,
    });
    expect(inv).toMatchObject({ discount_amount: 150, total_amount: 850 });
    const res = await ok(ws.api.patch(`/invoices/${inv.id}`, { discount_value: value }));
    expect(res).toMatchObject({ discount_amount: null, total_amount: 1000 });
    // Its type went with it: a value sent later alone is an amount again.
    const again = await ok(ws.api.patch(`/invoices/${inv.id}`, { discount_value: 15 }));
    expect(again).toMatchObject({ discount_amount: 15, total_amount: 985 });
  });

  test('discount_type alone turns the value kept into a percent, and back', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, { job_id: job.id, discount_value: 20 });
    expect(inv.discount_amount).toBe(20);
    const pct = await ok(ws.api.patch(`/invoices/${inv.id}`, { discount_type: 'percent' }));
    expect(pct.discount_amount).toBe(200);
    const amt = await ok(ws.api.patch(`/invoices/${inv.id}`, { discount_type: 'amount' }));
    expect(amt.discount_amount).toBe(20);
  });

  test('a body that changes nothing writes nothing: updated_at stays', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, { job_id: job.id, title: 'Roof' });
    await advance(h, 5);
    expect(await ok(ws.api.patch(`/invoices/${inv.id}`, {}))).toEqual(inv);
    expect(await ok(ws.api.patch(`/invoices/${inv.id}`, { title: 'Roof' }))).toEqual(inv);
  });

  test('contact_id and estimate_id can be changed and cleared', async () => {
    const { ws } = await fresh();
    const owner = await newContact(ws, { name: 'Hal Owner' });
    const payer = await newContact(ws, { name: 'Pat Payer' });
    const job = await newJob(ws, { homeowner_id: owner.id });
    const estimate = await ok(ws.api.post('/estimates', { job_id: job.id }), 201);
    const inv = await newInvoice(ws, { job_id: job.id });
    const moved = await ok(
      ws.api.patch(`/invoices/${inv.id}`, { contact_id: payer.id, estimate_id: estimate.id }),
    );
    expect(moved).toMatchObject({ contact_id: payer.id, estimate_id: estimate.id });
    const cleared = await ok(
      ws.api.patch(`/invoices/${inv.id}`, { contact_id: null, estimate_id: null }),
    );
    expect(cleared).toMatchObject({ contact_id: null, estimate_id: null, job_id: job.id });
  });

  test.each([
    ['an unknown contact', { contact_id: UNKNOWN }, 'contact_id'],
    ['an unknown estimate', { estimate_id: UNKNOWN }, 'estimate_id'],
    [
      'a percent discount over 100',
      { discount_type: 'percent', discount_value: 120 },
      'discount_value',
    ],
    [
      'due_date before issue_date',
      { issue_date: '2026-06-10', due_date: '2026-06-09' },
      'due_date',
    ],
    ['tax_rate over 100', { tax_rate: 101 }, 'tax_rate'],
    ['a negative discount', { discount_value: -5 }, 'discount_value'],
    ['empty line_items', { line_items: [] }, 'line_items'],
    ['an unknown purpose', { purpose: 'tip' }, 'purpose'],
  ])('%s: 400 naming the field, the draft unchanged', async (_name, body, field) => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, { job_id: job.id });
    const res = await ws.api.patch(`/invoices/${inv.id}`, body, { invalid: true });
    expectError(res, 400, 'invalid_request', field);
    expect(await invoiceOf(ws, inv.id)).toEqual(inv);
  });

  test("an estimate of another job than the invoice's is 400 estimate_id", async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const other = await newJob(ws, { name: 'Other' });
    const estimate = await ok(ws.api.post('/estimates', { job_id: other.id }), 201);
    const inv = await newInvoice(ws, { job_id: job.id });
    const res = await ws.api.patch(`/invoices/${inv.id}`, { estimate_id: estimate.id });
    expectError(res, 400, 'invalid_request', 'estimate_id');
    expect(await invoiceOf(ws, inv.id)).toEqual(inv);
  });

  test('an issue_date moved past the due_date kept is 400 issue_date', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, {
      job_id: job.id,
      issue_date: '2026-06-01',
      due_date: '2026-06-30',
    });
    const res = await ws.api.patch(`/invoices/${inv.id}`, { issue_date: '2026-07-01' });
    expectError(res, 400, 'invalid_request', 'issue_date');
  });

  test('a contact-only invoice cannot lose its contact: 400 contact_id', async () => {
    const { ws } = await fresh();
    const contact = await newContact(ws);
    const inv = await newInvoice(ws, { contact_id: contact.id });
    const res = await ws.api.patch(`/invoices/${inv.id}`, { contact_id: null });
    expectError(res, 400, 'invalid_request', 'contact_id');
    expect(await invoiceOf(ws, inv.id)).toEqual(inv);
  });

  test('a read-only key is 403 and changes nothing', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, { job_id: job.id });
    expectError(await ws.read.patch(`/invoices/${inv.id}`, { title: 'x' }), 403, 'forbidden');
    expect(await invoiceOf(ws, inv.id)).toEqual(inv);
  });

  test('an unknown invoice, or one of another workspace, is 404', async () => {
    const { h, ws } = await fresh();
    expectError(await ws.api.patch(`/invoices/${UNKNOWN}`, { title: 'x' }), 404, 'not_found');
    const theirs = await h.workspace();
    const inv = await newInvoice(theirs, { job_id: (await newJob(theirs)).id });
    expectError(await ws.api.patch(`/invoices/${inv.id}`, { title: 'x' }), 404, 'not_found');
    expect(await invoiceOf(theirs, inv.id)).toEqual(inv);
  });
});

describe('PATCH of an invoice that is not a draft', () => {
  test.each(OUT)('%s: 409 conflict, and nothing changes', async (status) => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, status);
    await advance(h, 5);
    const res = await ws.api.patch(`/invoices/${inv.id}`, {
      title: 'Changed',
      line_items: [{ name: 'x', unit_price: 1 }],
      tax_rate: 50,
    });
    expectError(res, 409, 'conflict');
    expect(await invoiceOf(ws, inv.id)).toEqual(inv);
  });
});

describe('DELETE /invoices/{id}', () => {
  test('a draft: 200 with the Deleted confirmation, then gone from GET and the lists', async () => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    const keep = await newInvoice(ws, { job_id: job.id });
    const inv = await newInvoice(ws, { job_id: job.id });
    const res = await ws.api.delete(`/invoices/${inv.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ id: inv.id, object: 'invoice', deleted: true });
    expectError(await ws.api.get(`/invoices/${inv.id}`), 404, 'not_found');
    expect(idsOf(await get(ws.api, '/invoices'))).toEqual([keep.id]);
    expect(idsOf(await get(ws.api, `/jobs/${job.id}/invoices`))).toEqual([keep.id]);
    // Deleted is gone: a second DELETE is 404.
    expectError(await ws.api.delete(`/invoices/${inv.id}`), 404, 'not_found');
  });

  test.each(OUT)('%s: 409 conflict, and the invoice stays as it was', async (status) => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, status);
    expectError(await ws.api.delete(`/invoices/${inv.id}`), 409, 'conflict');
    expect(await invoiceOf(ws, inv.id)).toEqual(inv);
    expect(idsOf(await get(ws.api, '/invoices'))).toContain(inv.id);
  });

  test('a read-only key is 403 and the draft stays', async () => {
    const { ws } = await fresh();
    const inv = await newInvoice(ws, { job_id: (await newJob(ws)).id });
    expectError(await ws.read.delete(`/invoices/${inv.id}`), 403, 'forbidden');
    expect(await invoiceOf(ws, inv.id)).toEqual(inv);
  });

  test('an unknown invoice is 404', async () => {
    const { ws } = await fresh();
    expectError(await ws.api.delete(`/invoices/${UNKNOWN}`), 404, 'not_found');
  });

  // spec, States: "DELETE /invoices/{id} | status draft | deleted", with no other condition; the
  // payment expected against it then sits on the job (spec, Payment: it applies to an invoice only
  // when invoice_id names one).
  test('a draft with an expected payment against it is deleted; the payment sits on the job', async () => {
    const { h, ws } = await fresh();
    const job = await newJob(ws);
    const inv = await newInvoice(ws, { job_id: job.id });
    const payment = await ok(
      ws.api.post('/payments', {
        job_id: job.id,
        invoice_id: inv.id,
        amount: 250,
        status: 'expected',
      }),
      201,
    );
    expect((await invoiceOf(ws, inv.id)).status).toBe('draft');
    await advance(h, 5);
    const res = await ws.api.delete(`/invoices/${inv.id}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ id: inv.id, object: 'invoice', deleted: true });
    expectError(await ws.api.get(`/invoices/${inv.id}`), 404, 'not_found');
    const after = await ok(ws.api.get(`/payments/${payment.id}`));
    expect(after).toEqual({ ...payment, invoice_id: null, updated_at: expect.any(String) });
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(payment.updated_at));
    expect(idsOf(await get(ws.api, '/payments', { job_id: job.id }))).toEqual([payment.id]);
  });
});

describe('PATCH of the discount type', () => {
  // decisions.md, Invoices: clearing the type clears the discount; 10% never becomes $10.
  test('discount_type null removes the discount, value and all', async () => {
    const { ws } = await fresh();
    const inv = await newInvoice(ws, {
      job_id: (await newJob(ws)).id,
      discount_type: 'percent',
      discount_value: 10,
    });
    expect(inv.discount_amount).toBe(100);
    const cleared = await ok(ws.api.patch(`/invoices/${inv.id}`, { discount_type: null }));
    expect(cleared).toMatchObject({ discount_amount: null, subtotal: 1000, total_amount: 1000 });
  });

  test('a percent type over a stored amount above 100 is 400 naming discount_type', async () => {
    const { ws } = await fresh();
    const inv = await newInvoice(ws, { job_id: (await newJob(ws)).id, discount_value: 150 });
    const res = await ws.api.patch(`/invoices/${inv.id}`, { discount_type: 'percent' });
    expectError(res, 400, 'invalid_request', 'discount_type');
    expect(await invoiceOf(ws, inv.id)).toEqual(inv);
  });
});
