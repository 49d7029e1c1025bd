import { describe, expect, test } from 'vitest';
import type { Json } from '../support/harness';
import type { Receiver } from '../support/receiver';
import {
  advance,
  type Ctx,
  createWebhook,
  eventsOf,
  setup as hookSetup,
  newJob,
  ok,
  one,
  recordOf,
  subscribe,
  UUID,
} from '../webhooks/setup';

// Payment events as a receiver sees them: spec, Events (payment.received, payment.refunded carry
// the Payment exactly as GET returns it; filters apply to single-event subscriptions);
// spec, POST /payments ("fires payment.received", whatever the status); decisions.md, Payments
// (again when an expected one comes in; a refund raises payment.refunded alone, carrying the
// refund) and Webhook subscriptions (payment events take
// payment_type, payer_type, payment_method).

const payment = (c: Ctx, body: Record<string, unknown>): Promise<Json> =>
  ok(c.ws.api.post('/payments', body), 201);

/** Delivers what is due; answers the event names that arrived so far. */
async function delivered(c: Ctx): Promise<string[]> {
  await advance(c.h, 0);
  return eventsOf(c.rx);
}

const idsReceived = (rx: Receiver): string[] => rx.received.map((r) => String(r.json.id));

describe('payment.received', () => {
  test('carries the payment exactly as GET /payments/{id} returns it', async () => {
    const c = await hookSetup();
    const job = await newJob(c.ws);
    await subscribe(c, 'payment.received');
    const p = await payment(c, {
      job_id: job.id,
      amount: 1234.56,
      payment_type: 'acv',
      payer_type: 'insurance',
      check_number: '5512',
    });
    await advance(c.h, 0);
    const body = one(c.rx, 'payment.received').json;
    expect(recordOf(body)).toEqual(await ok(c.ws.api.get(`/payments/${p.id}`)));
    expect(body).toMatchObject({
      event_type: 'payment.received',
      event_id: expect.stringMatching(UUID),
      event_at: p.updated_at,
      event_workspace_id: c.ws.id,
      amount: 1234.56,
    });
  });

  // spec, POST /payments: "201 Payment; fires payment.received", an expected payment included.
  test('POST /payments fires payment.received for an expected payment, carrying it expected and dated', async () => {
    const c = await hookSetup();
    const job = await newJob(c.ws);
    await subscribe(c, 'payment.received');
    const p = await payment(c, {
      job_id: job.id,
      amount: 1000,
      status: 'expected',
      payer_type: 'insurance',
      payment_type: 'acv',
    });
    expect(p.date_received).toEqual(expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/));
    await advance(c.h, 0);
    const body = one(c.rx, 'payment.received').json;
    expect(recordOf(body)).toEqual(await ok(c.ws.api.get(`/payments/${p.id}`)));
    expect(body).toMatchObject({ id: p.id, status: 'expected', date_received: p.date_received });
  });

  test('an expected payment coming in fires payment.received again, carrying it received', async () => {
    const c = await hookSetup();
    const job = await newJob(c.ws);
    await subscribe(c, 'payment.received');
    const p = await payment(c, { job_id: job.id, amount: 500, status: 'expected' });
    expect(await delivered(c)).toEqual(['payment.received']);
    const moved = await ok(c.h.admin.patch(`/payments/${p.id}`, { status: 'received' }));
    await advance(c.h, 0);
    const last = c.rx.received.at(-1)?.json;
    expect(last && recordOf(last)).toEqual(moved);
    expect(last).toMatchObject({ event_type: 'payment.received', status: 'received' });
    // Moving on between received statuses is no new receipt.
    await ok(c.h.admin.patch(`/payments/${p.id}`, { status: 'deposited' }));
    await ok(c.h.admin.patch(`/payments/${p.id}`, { status: 'endorsed' }));
    expect(await delivered(c)).toEqual(['payment.received', 'payment.received']);
  });

  test.each(['sent_to_mortgage', 'endorsed', 'deposited'])(
    'a payment recorded %s is received',
    async (status) => {
      const c = await hookSetup();
      const job = await newJob(c.ws);
      await subscribe(c, 'payment.received');
      await payment(c, { job_id: job.id, amount: 5, status });
      expect(await delivered(c)).toEqual(['payment.received']);
    },
  );

  test('a refund raises no payment.received', async () => {
    const c = await hookSetup();
    const job = await newJob(c.ws);
    const p = await payment(c, { job_id: job.id, amount: 100 });
    await subscribe(c, 'payment.received');
    await ok(c.h.admin.post(`/payments/${p.id}/refund`, { amount: 40 }));
    expect(await delivered(c)).toEqual([]);
  });

  test('a payment refused raises nothing', async () => {
    const c = await hookSetup();
    const job = await newJob(c.ws);
    const other = await newJob(c.ws, { name: 'Other' });
    const inv = await ok(
      c.ws.api.post('/invoices', { job_id: other.id, line_items: [{ name: 'a', unit_price: 1 }] }),
      201,
    );
    await subscribe(c, 'payment.received');
    const res = await c.ws.api.post('/payments', {
      job_id: job.id,
      invoice_id: inv.id,
      amount: 1,
    });
    expect(res.status).toBe(400);
    expect(await delivered(c)).toEqual([]);
  });
});

describe('payment.refunded', () => {
  test('carries the refund payment as GET returns it: negative, is_refund, refund_of_payment_id', async () => {
    const c = await hookSetup();
    const job = await newJob(c.ws);
    const p = await payment(c, { job_id: job.id, amount: 100, payment_method: 'card' });
    await subscribe(c, 'payment.refunded');
    const r = await ok(c.h.admin.post(`/payments/${p.id}/refund`, { amount: 40 }));
    await advance(c.h, 0);
    const body = one(c.rx, 'payment.refunded').json;
    expect(recordOf(body)).toEqual(await ok(c.ws.api.get(`/payments/${r.id}`)));
    expect(body).toMatchObject({
      id: r.id,
      amount: -40,
      is_refund: true,
      refund_of_payment_id: p.id,
      payment_method: 'card',
      event_type: 'payment.refunded',
      event_at: r.updated_at,
    });
  });

  test('recording or moving a payment raises no payment.refunded', async () => {
    const c = await hookSetup();
    const job = await newJob(c.ws);
    await subscribe(c, 'payment.refunded');
    const p = await payment(c, { job_id: job.id, amount: 100, status: 'expected' });
    await ok(c.h.admin.patch(`/payments/${p.id}`, { status: 'received' }));
    expect(await delivered(c)).toEqual([]);
  });

  test('each refund raises one; a refund refused raises none', async () => {
    const c = await hookSetup();
    const job = await newJob(c.ws);
    const p = await payment(c, { job_id: job.id, amount: 100 });
    await subscribe(c, 'payment.refunded');
    const a = await ok(c.h.admin.post(`/payments/${p.id}/refund`, { amount: 30 }));
    const b = await ok(c.h.admin.post(`/payments/${p.id}/refund`));
    expect((await c.h.admin.post(`/payments/${p.id}/refund`)).status).toBe(409);
    await advance(c.h, 0);
    expect(eventsOf(c.rx)).toEqual(['payment.refunded', 'payment.refunded']);
    expect(idsReceived(c.rx)).toEqual([a.id, b.id]);
  });
});

describe('both payment events on one URL', () => {
  test('a payment then its refund: received, refunded, in order', async () => {
    const c = await hookSetup();
    const job = await newJob(c.ws);
    await createWebhook(c.ws.api, {
      events: ['payment.received', 'payment.refunded'],
      target_url: c.rx.url,
    });
    const p = await payment(c, { job_id: job.id, amount: 100 });
    const r = await ok(c.h.admin.post(`/payments/${p.id}/refund`));
    expect(await delivered(c)).toEqual(['payment.received', 'payment.refunded']);
    expect(idsReceived(c.rx)).toEqual([p.id, r.id]);
  });
});

describe('filters on a single-event subscription', () => {
  test.each([
    ['payment_type', 'deductible', 'acv'],
    ['payer_type', 'insurance', 'homeowner'],
    ['payment_method', 'ach', 'check'],
  ])('payment.received filtered on %s = %s delivers only those', async (key, hit, miss) => {
    const c = await hookSetup();
    const job = await newJob(c.ws);
    const sub = await subscribe(c, 'payment.received', { [key]: hit });
    expect(sub.filters).toEqual({ [key]: hit });
    await payment(c, { job_id: job.id, amount: 1, [key]: miss });
    const match = await payment(c, { job_id: job.id, amount: 2, [key]: hit });
    // Left to its defaults (other, homeowner, check), a payment is none of the values filtered on.
    await payment(c, { job_id: job.id, amount: 3 });
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([match.id]);
  });

  test('filters combine: every key must match', async () => {
    const c = await hookSetup();
    const job = await newJob(c.ws);
    await subscribe(c, 'payment.received', {
      payment_type: 'supplement',
      payer_type: 'insurance',
    });
    await payment(c, { job_id: job.id, amount: 1, payment_type: 'supplement' });
    await payment(c, { job_id: job.id, amount: 2, payer_type: 'insurance' });
    const both = await payment(c, {
      job_id: job.id,
      amount: 3,
      payment_type: 'supplement',
      payer_type: 'insurance',
    });
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([both.id]);
  });

  test('payment.refunded filtered on payment_method: the refund carries the original method', async () => {
    const c = await hookSetup();
    const job = await newJob(c.ws);
    const card = await payment(c, { job_id: job.id, amount: 10, payment_method: 'card' });
    const cash = await payment(c, { job_id: job.id, amount: 10, payment_method: 'cash' });
    await subscribe(c, 'payment.refunded', { payment_method: 'card' });
    const hit = await ok(c.h.admin.post(`/payments/${card.id}/refund`));
    await ok(c.h.admin.post(`/payments/${cash.id}/refund`));
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([hit.id]);
  });

  test('an expected payment filtered in is delivered when recorded and when it comes in', async () => {
    const c = await hookSetup();
    const job = await newJob(c.ws);
    await subscribe(c, 'payment.received', { payment_type: 'depreciation' });
    const p = await payment(c, {
      job_id: job.id,
      amount: 700,
      payment_type: 'depreciation',
      status: 'expected',
    });
    await payment(c, { job_id: job.id, amount: 5, status: 'expected' });
    expect(await delivered(c)).toEqual(['payment.received']);
    await ok(c.h.admin.patch(`/payments/${p.id}`, { status: 'received' }));
    await advance(c.h, 0);
    expect(idsReceived(c.rx)).toEqual([p.id, p.id]);
  });

  test.each([
    ['payment_type', 'cash'],
    ['payer_type', 'bank'],
    ['payment_method', 'crypto'],
    ['status', 'received'],
  ])('a filter %s = %s is 400 naming filters.%s', async (key, value) => {
    const c = await hookSetup();
    const res = await c.ws.api.post('/webhooks', {
      event: 'payment.received',
      target_url: c.rx.url,
      filters: { [key]: value },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: `filters.${key}` });
  });

  test('GET /events lists the three payment filters with their values', async () => {
    const c = await hookSetup();
    const catalogue = (await ok(c.ws.api.get('/events'))).data as Json[];
    for (const event of ['payment.received', 'payment.refunded']) {
      const entry = catalogue.find((e) => e.event === event);
      expect(entry, event).toBeDefined();
      const filters = Object.fromEntries(
        (entry.filters as Json[]).map((f) => [f.key, [...(f.values ?? [])].sort()]),
      );
      expect(filters).toEqual({
        payment_type: ['acv', 'deductible', 'depreciation', 'other', 'retail', 'supplement'],
        payer_type: ['homeowner', 'insurance', 'mortgage_company', 'other'],
        payment_method: ['ach', 'card', 'cash', 'check', 'financing', 'other'],
      });
    }
  });
});

// decisions.md, Jobs: a payment change keeps its job's amount_received, as logging one in the app
// changes the job's money tab: the job is touched and job.updated lists what moved.
describe('job.updated from payments', () => {
  test('a payment raises job.updated listing amount_received and balance_due, carrying them moved', async () => {
    const c = await hookSetup();
    const job = await newJob(c.ws, { rcv_amount: 10_000 });
    await subscribe(c, 'job.updated');
    await payment(c, { job_id: job.id, amount: 2500 });
    await advance(c.h, 60);
    const body = one(c.rx, 'job.updated').json;
    expect(body.changed_fields).toEqual(['amount_received', 'balance_due']);
    expect(body).toMatchObject({ id: job.id, amount_received: 2500, balance_due: 7500 });
    const { changed_fields: _listed, ...record } = recordOf(body);
    expect(record).toEqual(await ok(c.ws.api.get(`/jobs/${job.id}`)));
  });

  test('an expected payment moves nothing on the job: no job.updated', async () => {
    const c = await hookSetup();
    const job = await newJob(c.ws, { rcv_amount: 10_000 });
    await subscribe(c, 'job.updated');
    await payment(c, { job_id: job.id, amount: 2500, status: 'expected' });
    await advance(c.h, 60);
    expect(eventsOf(c.rx)).toEqual([]);
  });
});
