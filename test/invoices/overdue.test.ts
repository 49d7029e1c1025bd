import { describe, expect, test } from 'vitest';
import type { Harness, TestWorkspace } from '../support/harness';
import { harness } from '../support/harness';
import {
  advance as deliver,
  eventsOf,
  setup as hookSetup,
  one,
  recordOf,
  subscribe,
} from '../webhooks/setup';
import {
  advance,
  centralDayEndMs,
  fresh,
  invoiceIn,
  invoiceOf,
  markSent,
  newInvoice,
  newJob,
  nowMs,
  ok,
  pay,
  plusDays,
  refund,
  setClock,
  view,
  voidIt,
  writeOff,
} from './setup';

// decisions.md, Invoices (Overdue): an invoice that is sent, viewed or partially paid with a
// balance goes overdue once the clock passes the end of its due date (US Central time), once:
// invoice.overdue never fires twice for one invoice. Money, US Central: a date passes at the end
// of that day there.

const DAY_S = 24 * 60 * 60;

/**
 * Puts the clock at noon US Central time (18:00 UTC) of a day ahead, so a test has the whole
 * afternoon before its day ends. Answers that day.
 */
async function noonAhead(h: Harness, days = 2): Promise<string> {
  const now = await nowMs(h);
  const day = new Date(now + days * DAY_S * 1000).toISOString().slice(0, 10);
  await setClock(h, Date.parse(`${day}T18:00:00.000Z`));
  return day;
}

/** A $1,000 invoice due `due` (issued the same day), on a job of its own, sent. */
async function sentDue(ws: TestWorkspace, due: string, issue = due) {
  const job = await newJob(ws);
  const inv = await newInvoice(ws, { job_id: job.id, issue_date: issue, due_date: due });
  return markSent(ws, inv.id);
}

/**
 * The due work ran at its own time, the first instant of the next day in US Central time, not at
 * the end of the clock move (the clock runs on with real time meanwhile: allow a second of it).
 */
function expectRunAt(updatedAt: string, end: number): void {
  expect(Date.parse(updatedAt)).toBeGreaterThanOrEqual(end);
  expect(Date.parse(updatedAt)).toBeLessThan(end + 1000);
}

/** Moves the clock to `seconds` before `ms`. */
async function toBefore(h: Harness, ms: number, seconds: number): Promise<void> {
  const now = await nowMs(h);
  await advance(h, Math.floor((ms - now) / 1000) - seconds);
}

describe('an invoice goes overdue when its due date ends in US Central time', () => {
  test('a sent invoice due today is still sent just before midnight in Chicago, overdue at it', async () => {
    const { h, ws } = await fresh();
    const today = await noonAhead(h);
    const inv = await sentDue(ws, today);
    const end = centralDayEndMs(today);
    // Midnight in Chicago is hours after midnight UTC: a UTC calendar would have passed it.
    expect(end).toBeGreaterThan(Date.parse(`${plusDays(today, 1)}T00:00:00.000Z`));
    await toBefore(h, end, 5);
    expect((await invoiceOf(ws, inv.id)).status).toBe('sent');
    await advance(h, 10);
    const overdue = await invoiceOf(ws, inv.id);
    expect(overdue).toMatchObject({
      status: 'overdue',
      balance_due: 1000,
      payment_url: inv.payment_url,
    });
    expectRunAt(overdue.updated_at, end);
  });

  test('under daylight time the day ends at 05:00 UTC', async () => {
    // An app of its own: this test moves its clock to a summer.
    const h = harness({ rateLimit: null });
    const ws = await h.workspace();
    const now = await nowMs(h);
    const year = new Date(now).getUTCFullYear() + 1;
    const day = `${year}-07-14`;
    await setClock(h, Date.parse(`${day}T18:00:00.000Z`));
    const inv = await sentDue(ws, day);
    const end = Date.parse(`${year}-07-15T05:00:00.000Z`);
    expect(centralDayEndMs(day)).toBe(end);
    await toBefore(h, end, 5);
    expect((await invoiceOf(ws, inv.id)).status).toBe('sent');
    await advance(h, 10);
    const overdue = await invoiceOf(ws, inv.id);
    expect(overdue.status).toBe('overdue');
    expectRunAt(overdue.updated_at, end);
  });

  test('a viewed invoice goes overdue', async () => {
    const { h, ws } = await fresh();
    const today = await noonAhead(h);
    const inv = await sentDue(ws, today);
    await view(h, inv.id);
    await advance(h, DAY_S);
    expect(await invoiceOf(ws, inv.id)).toMatchObject({
      status: 'overdue',
      first_viewed_at: expect.any(String),
    });
  });

  test('a partially paid one goes overdue and stays overdue until paid in full', async () => {
    const { h, ws } = await fresh();
    const today = await noonAhead(h);
    const inv = await sentDue(ws, today);
    await pay(ws, { job_id: inv.job_id, invoice_id: inv.id, amount: 100 });
    await advance(h, DAY_S);
    expect(await invoiceOf(ws, inv.id)).toMatchObject({ status: 'overdue', balance_due: 900 });
    await pay(ws, { job_id: inv.job_id, invoice_id: inv.id, amount: 100 });
    expect(await invoiceOf(ws, inv.id)).toMatchObject({ status: 'overdue', balance_due: 800 });
    const rest = await pay(ws, { job_id: inv.job_id, invoice_id: inv.id, amount: 800 });
    expect(await invoiceOf(ws, inv.id)).toMatchObject({ status: 'paid', balance_due: 0 });
    // A refund reopens it as it stood: overdue.
    await refund(h, rest.id, { amount: 50 });
    expect(await invoiceOf(ws, inv.id)).toMatchObject({
      status: 'overdue',
      balance_due: 50,
      paid_at: null,
    });
  });

  test('an invoice sent after its due date passed goes overdue at the next clock move', async () => {
    const { h, ws } = await fresh();
    const inv = await sentDue(ws, '2026-01-10', '2026-01-05');
    expect(inv.status).toBe('sent');
    await advance(h, 0);
    expect((await invoiceOf(ws, inv.id)).status).toBe('overdue');
  });
});

describe('what does not go overdue', () => {
  test('a paid invoice', async () => {
    const { h, ws } = await fresh();
    const today = await noonAhead(h);
    const inv = await sentDue(ws, today);
    await pay(ws, { job_id: inv.job_id, invoice_id: inv.id, amount: 1000 });
    await advance(h, 3 * DAY_S);
    expect(await invoiceOf(ws, inv.id)).toMatchObject({
      status: 'paid',
      paid_at: expect.any(String),
    });
  });

  test('a draft', async () => {
    const { h, ws } = await fresh();
    const today = await noonAhead(h);
    const inv = await newInvoice(ws, { job_id: (await newJob(ws)).id, due_date: today });
    await advance(h, 3 * DAY_S);
    expect((await invoiceOf(ws, inv.id)).status).toBe('draft');
  });

  test.each(['void', 'bad_debt'] as const)('a %s invoice', async (status) => {
    const { h, ws } = await fresh();
    const today = await noonAhead(h);
    const inv = await sentDue(ws, today);
    if (status === 'void') {
      await voidIt(ws, inv.id);
    } else {
      await writeOff(h, inv.id);
    }
    await advance(h, 3 * DAY_S);
    expect((await invoiceOf(ws, inv.id)).status).toBe(status);
  });

  test('an invoice with no due date', async () => {
    const { h, ws } = await fresh();
    const inv = await invoiceIn(h, ws, 'sent');
    expect(inv.due_date).toBeNull();
    await advance(h, 400 * DAY_S);
    expect((await invoiceOf(ws, inv.id)).status).toBe('sent');
  });

  test('a sent invoice with nothing to pay', async () => {
    const { h, ws } = await fresh();
    const today = await noonAhead(h);
    const job = await newJob(ws);
    const inv = await newInvoice(ws, {
      job_id: job.id,
      due_date: today,
      line_items: [{ name: 'warranty visit', unit_price: 0 }],
    });
    await markSent(ws, inv.id);
    await advance(h, 3 * DAY_S);
    expect(await invoiceOf(ws, inv.id)).toMatchObject({ status: 'sent', balance_due: 0 });
  });

  test('an invoice whose due date is still ahead', async () => {
    const { h, ws } = await fresh();
    const today = await noonAhead(h);
    const inv = await sentDue(ws, plusDays(today, 2), today);
    await advance(h, DAY_S);
    expect((await invoiceOf(ws, inv.id)).status).toBe('sent');
    await advance(h, 2 * DAY_S);
    expect((await invoiceOf(ws, inv.id)).status).toBe('overdue');
  });
});

describe('invoice.overdue fires once', () => {
  test('one delivery, carrying the invoice as GET returns it, however the invoice moves after', async () => {
    const c = await hookSetup();
    await subscribe(c, 'invoice.overdue');
    const today = await noonAhead(c.h);
    const now = await nowMs(c.h);
    const job = await ok(c.ws.api.post('/jobs', { name: 'Roof', address: '1 Main St' }), 201);
    const inv = await ok(
      c.ws.api.post('/invoices', {
        job_id: job.id,
        due_date: today,
        line_items: [{ name: 'Roof', unit_price: 1000 }],
      }),
      201,
    );
    await ok(c.ws.api.post(`/invoices/${inv.id}/mark_sent`));
    await deliver(c.h, Math.ceil((centralDayEndMs(today) - now) / 1000) + 1);
    const body = one(c.rx, 'invoice.overdue').json;
    const got = await ok(c.ws.api.get(`/invoices/${inv.id}`));
    expect(got.status).toBe('overdue');
    expect(recordOf(body)).toEqual(got);
    expect(body).toMatchObject({
      event_type: 'invoice.overdue',
      event_at: got.updated_at,
      event_workspace_id: c.ws.id,
    });
    // Paid in full, then reopened by a refund: overdue again, but not announced again.
    const p = await ok(
      c.ws.api.post('/payments', { job_id: job.id, invoice_id: inv.id, amount: 1000 }),
      201,
    );
    await ok(c.h.admin.post(`/payments/${p.id}/refund`, { amount: 10 }));
    expect((await ok(c.ws.api.get(`/invoices/${inv.id}`))).status).toBe('overdue');
    await deliver(c.h, 10 * DAY_S);
    expect(eventsOf(c.rx)).toEqual(['invoice.overdue']);
  });
});
