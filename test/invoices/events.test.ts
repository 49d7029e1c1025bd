import { describe, expect, test } from 'vitest';
import type { Json } from '../support/harness';
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

// Invoice events as a receiver sees them: spec, Events (invoice.created, invoice.sent,
// invoice.paid, invoice.overdue, invoice.voided; the record exactly as GET returns it);
// decisions.md, Invoices (Events) and Webhook subscriptions (invoice events take no filters).

const INVOICE_EVENTS = [
  'invoice.created',
  'invoice.sent',
  'invoice.paid',
  'invoice.overdue',
  'invoice.voided',
];

const LINE = { name: 'Roof', unit_price: 1000 };

/** Subscribes the receiver to every invoice event on one URL. */
const subscribeAll = (c: Ctx) =>
  createWebhook(c.ws.api, { events: INVOICE_EVENTS, target_url: c.rx.url });

async function invoice(c: Ctx, body: Record<string, unknown> = {}): Promise<Json> {
  const job = await newJob(c.ws);
  return ok(c.ws.api.post('/invoices', { job_id: job.id, line_items: [LINE], ...body }), 201);
}

const getInvoice = (c: Ctx, id: string) => ok(c.ws.api.get(`/invoices/${id}`));

/** Delivers what is due; answers the event names that arrived so far. */
async function delivered(c: Ctx): Promise<string[]> {
  await advance(c.h, 0);
  return eventsOf(c.rx);
}

describe('invoice events', () => {
  test('invoice.created carries the draft exactly as GET /invoices/{id} returns it', async () => {
    const c = await hookSetup();
    await subscribe(c, 'invoice.created');
    const inv = await invoice(c, { purpose: 'deductible', tax_rate: 5 });
    await advance(c.h, 0);
    const body = one(c.rx, 'invoice.created').json;
    expect(recordOf(body)).toEqual(await getInvoice(c, inv.id));
    expect(body).toMatchObject({
      event_type: 'invoice.created',
      event_id: expect.stringMatching(UUID),
      event_at: inv.updated_at,
      event_workspace_id: c.ws.id,
    });
  });

  test('invoice.sent when it first goes out, with sent_at and the pay page; not again', async () => {
    const c = await hookSetup();
    const inv = await invoice(c);
    await subscribe(c, 'invoice.sent');
    const sent = await ok(c.ws.api.post(`/invoices/${inv.id}/mark_sent`));
    await advance(c.h, 0);
    const body = one(c.rx, 'invoice.sent').json;
    expect(recordOf(body)).toEqual(sent);
    expect(body).toMatchObject({
      status: 'sent',
      sent_at: sent.sent_at,
      event_at: sent.updated_at,
    });
    expect(body.payment_url).not.toBeNull();
    // mark_sent again, a view, a payment: none of them is a sending.
    await ok(c.ws.api.post(`/invoices/${inv.id}/mark_sent`));
    await ok(c.h.admin.post(`/invoices/${inv.id}/view`));
    await ok(
      c.ws.api.post('/payments', { job_id: inv.job_id, invoice_id: inv.id, amount: 5 }),
      201,
    );
    expect(await delivered(c)).toEqual(['invoice.sent']);
  });

  test('invoice.paid when paid in full, carrying the paid invoice; a partial payment raises none', async () => {
    const c = await hookSetup();
    const inv = await invoice(c);
    await ok(c.ws.api.post(`/invoices/${inv.id}/mark_sent`));
    await subscribe(c, 'invoice.paid');
    await ok(
      c.ws.api.post('/payments', { job_id: inv.job_id, invoice_id: inv.id, amount: 400 }),
      201,
    );
    expect(await delivered(c)).toEqual([]);
    await ok(
      c.ws.api.post('/payments', { job_id: inv.job_id, invoice_id: inv.id, amount: 600 }),
      201,
    );
    await advance(c.h, 0);
    const body = one(c.rx, 'invoice.paid').json;
    expect(recordOf(body)).toEqual(await getInvoice(c, inv.id));
    expect(body).toMatchObject({ status: 'paid', amount_paid: 1000, balance_due: 0 });
    expect(body.paid_at).not.toBeNull();
  });

  test('invoice.paid when an expected payment comes in', async () => {
    const c = await hookSetup();
    const inv = await invoice(c);
    await subscribe(c, 'invoice.paid');
    const p = await ok(
      c.ws.api.post('/payments', {
        job_id: inv.job_id,
        invoice_id: inv.id,
        amount: 1000,
        status: 'expected',
      }),
      201,
    );
    expect(await delivered(c)).toEqual([]);
    await ok(c.h.admin.patch(`/payments/${p.id}`, { status: 'deposited' }));
    expect(await delivered(c)).toEqual(['invoice.paid']);
  });

  test('invoice.voided when voided, carrying the void invoice; voiding again raises none', async () => {
    const c = await hookSetup();
    const inv = await invoice(c);
    await ok(c.ws.api.post(`/invoices/${inv.id}/mark_sent`));
    await subscribe(c, 'invoice.voided');
    const voided = await ok(c.ws.api.post(`/invoices/${inv.id}/void`));
    await ok(c.ws.api.post(`/invoices/${inv.id}/void`));
    await advance(c.h, 0);
    const body = one(c.rx, 'invoice.voided').json;
    expect(recordOf(body)).toEqual(voided);
    expect(body).toMatchObject({ status: 'void', payment_url: null, event_at: voided.updated_at });
  });

  test('the whole life of an invoice raises each event once, in order', async () => {
    const c = await hookSetup();
    await subscribeAll(c);
    const inv = await invoice(c);
    await ok(c.ws.api.patch(`/invoices/${inv.id}`, { title: 'Changed' }));
    await ok(c.ws.api.post(`/invoices/${inv.id}/mark_sent`));
    const p = await ok(
      c.ws.api.post('/payments', { job_id: inv.job_id, invoice_id: inv.id, amount: 1000 }),
      201,
    );
    await ok(c.h.admin.post(`/payments/${p.id}/refund`, { amount: 100 }));
    await ok(c.ws.api.post(`/invoices/${inv.id}/void`));
    expect(await delivered(c)).toEqual([
      'invoice.created',
      'invoice.sent',
      'invoice.paid',
      'invoice.voided',
    ]);
  });

  test('a draft voided is voided, never sent; a draft deleted raises nothing', async () => {
    const c = await hookSetup();
    const a = await invoice(c);
    const b = await invoice(c);
    await subscribeAll(c);
    await ok(c.ws.api.post(`/invoices/${a.id}/void`));
    await ok(c.ws.api.delete(`/invoices/${b.id}`));
    expect(await delivered(c)).toEqual(['invoice.voided']);
  });

  test('paid again after a refund reopened it: invoice.paid again', async () => {
    const c = await hookSetup();
    const inv = await invoice(c);
    await subscribe(c, 'invoice.paid');
    const p = await ok(
      c.ws.api.post('/payments', { job_id: inv.job_id, invoice_id: inv.id, amount: 1000 }),
      201,
    );
    await ok(c.h.admin.post(`/payments/${p.id}/refund`, { amount: 1 }));
    await ok(
      c.ws.api.post('/payments', { job_id: inv.job_id, invoice_id: inv.id, amount: 1 }),
      201,
    );
    expect(await delivered(c)).toEqual(['invoice.paid', 'invoice.paid']);
  });

  test.each(INVOICE_EVENTS)('%s takes no filters: 400 naming the filter', async (event) => {
    const c = await hookSetup();
    const res = await c.ws.api.post('/webhooks', {
      event,
      target_url: c.rx.url,
      filters: { status: 'paid' },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', field: 'filters.status' });
  });

  test('GET /events lists the five invoice events, with no filters', async () => {
    const c = await hookSetup();
    const catalogue = (await ok(c.ws.api.get('/events'))).data as Json[];
    for (const event of INVOICE_EVENTS) {
      const entry = catalogue.find((e) => e.event === event);
      expect(entry, event).toBeDefined();
      expect(entry.filters, event).toEqual([]);
    }
  });
});
