// Shared by the invoice and payment tests: one app per test file, a workspace of the test's own,
// the requests the tests repeat, and an independent reading of the money rules (decisions.md,
// Money: integer cents, each figure rounded once, half away from zero; US Central calendar).
import { expect } from 'vitest';
import { expectError, ok } from '../support/expect';
import {
  type Client,
  type Harness,
  harness,
  type Json,
  type TestWorkspace,
} from '../support/harness';

export { expectError, ok };

/** A uuid no workspace holds. */
export const UNKNOWN = '7b0c5b2e-5d2a-4b43-9d59-6a1f0b7f5a11';

/** One priced line: the least an invoice needs. */
export const LINE = { name: 'Tear-off and reroof', unit_price: 1000, taxable: true };

// One app per test file (vitest gives each file its own module graph), no rate limit. Tests never
// share a workspace, and the clock only moves forward, so the tests of a file cannot see each other.
let shared: Harness | undefined;
export const app = (): Harness => {
  shared ??= harness({ rateLimit: null });
  return shared;
};

/** A new empty workspace on the file's app (the empty profile seeds no records). */
export async function fresh(h: Harness = app()): Promise<{ h: Harness; ws: TestWorkspace }> {
  return { h, ws: await h.workspace() };
}

export const newJob = (ws: TestWorkspace, body: Record<string, unknown> = {}): Promise<Json> =>
  ok(ws.api.post('/jobs', { name: 'Hale roof', address: '418 Elm Street', ...body }), 201);

export const newContact = (
  ws: TestWorkspace,
  body: Record<string, unknown> = { name: 'Dana Whitfield' },
): Promise<Json> => ok(ws.api.post('/contacts', body), 201);

/** POST /invoices that must answer 201; one $1,000 line unless the body says otherwise. */
export const newInvoice = (ws: TestWorkspace, body: Record<string, unknown>): Promise<Json> =>
  ok(ws.api.post('/invoices', { line_items: [LINE], ...body }), 201);

/** POST /payments that must answer 201. */
export const pay = (ws: TestWorkspace, body: Record<string, unknown>): Promise<Json> =>
  ok(ws.api.post('/payments', body), 201);

/** GET of a /v1 path (with a query) that must answer 200. */
export const get = (
  client: Client,
  path: string,
  query?: Record<string, string | number | boolean>,
): Promise<Json> => ok(client.get(path, query === undefined ? {} : { query }));

export const invoiceOf = (ws: TestWorkspace, id: string): Promise<Json> =>
  get(ws.api, `/invoices/${id}`);

export const jobOf = (ws: TestWorkspace, id: string): Promise<Json> => get(ws.api, `/jobs/${id}`);

export const idsOf = (body: Json): string[] => body.data.map((r: { id: string }) => r.id);

/** An invoice moved to sent (POST /invoices/{id}/mark_sent). */
export const markSent = (ws: TestWorkspace, id: string): Promise<Json> =>
  ok(ws.api.post(`/invoices/${id}/mark_sent`));

export const voidIt = (ws: TestWorkspace, id: string): Promise<Json> =>
  ok(ws.api.post(`/invoices/${id}/void`));

export const view = (h: Harness, id: string): Promise<Json> =>
  ok(h.admin.post(`/invoices/${id}/view`));

export const writeOff = (h: Harness, id: string): Promise<Json> =>
  ok(h.admin.post(`/invoices/${id}/bad_debt`));

export const refund = (h: Harness, id: string, body?: Record<string, unknown>): Promise<Json> =>
  ok(h.admin.post(`/payments/${id}/refund`, body));

export const setStatus = (h: Harness, id: string, status: string): Promise<Json> =>
  ok(h.admin.patch(`/payments/${id}`, { status }));

/** The clock's now, in ms. */
export async function nowMs(h: Harness): Promise<number> {
  return Date.parse((await ok(h.admin.get('/clock'))).now);
}

/** Moves the virtual clock forward (running what falls due); answers the new now in ms. */
export async function advance(h: Harness, seconds: number): Promise<number> {
  return Date.parse((await ok(h.admin.post('/clock', { advance_seconds: seconds }))).now);
}

/** Sets the clock to an instant ahead of it. */
export async function setClock(h: Harness, ms: number): Promise<void> {
  await ok(h.admin.post('/clock', { set: new Date(ms).toISOString() }));
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Moves the clock to 03:30 UTC of a day at least a day ahead: the evening before in US Central
 * time, so a "today" taken in UTC would be off by one. Answers the US Central date then.
 */
export async function toLateCentralEvening(h: Harness): Promise<string> {
  const now = await nowMs(h);
  const day = new Date(now + 2 * DAY_MS).toISOString().slice(0, 10);
  const at = Date.parse(`${day}T03:30:00.000Z`);
  await setClock(h, at);
  const central = centralDate(at);
  expect(central < day).toBe(true);
  return central;
}

const centralDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Chicago',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});
const centralHour = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/Chicago',
  hourCycle: 'h23',
  hour: '2-digit',
  minute: '2-digit',
});

/** The calendar day an instant falls on in US Central time (YYYY-MM-DD). */
export const centralDate = (ms: number): string => centralDay.format(ms);

/** The day `n` days after a calendar day. */
export function plusDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The instant a calendar day ends in US Central time: the next day's midnight there, which is
 * 05:00 UTC under daylight time (CDT) and 06:00 UTC under standard time (CST).
 */
export function centralDayEndMs(date: string): number {
  const next = plusDays(date, 1);
  for (const hour of ['05', '06']) {
    const at = Date.parse(`${next}T${hour}:00:00.000Z`);
    if (centralHour.format(at) === '00:00') {
      return at;
    }
  }
  throw new Error(`no US Central midnight found for ${next}`);
}

/** n / d rounded to a whole number, halves away from zero (d > 0). */
export function roundDiv(n: bigint, d: bigint): bigint {
  const neg = n < 0n;
  const a = neg ? -n : n;
  const q = (2n * a + d) / (2n * d);
  return neg ? -q : q;
}

/** Whole cents as the JSON number the API shows: the double nearest the decimal. */
export const dollars = (cents: bigint): number => Number(cents) / 100;

/** The statuses an invoice can be brought to. */
export type InvoiceStatus =
  | 'draft'
  | 'sent'
  | 'viewed'
  | 'partially_paid'
  | 'paid'
  | 'overdue'
  | 'void'
  | 'bad_debt';

/**
 * A $1,000 invoice on a job of its own, brought to `status` through the API and the control API
 * (overdue: due on a day long past, sent, and the clock moved so the due work runs). Answers it
 * as GET returns it.
 */
export async function invoiceIn(
  h: Harness,
  ws: TestWorkspace,
  status: InvoiceStatus,
  body: Record<string, unknown> = {},
): Promise<Json> {
  const job = await newJob(ws);
  const past = status === 'overdue' ? { issue_date: '2026-01-05', due_date: '2026-01-10' } : {};
  const inv = await newInvoice(ws, { job_id: job.id, ...past, ...body });
  const paying = (amount: number) =>
    pay(ws, { job_id: job.id, invoice_id: inv.id, amount }).then(() => undefined);
  switch (status) {
    case 'draft':
      break;
    case 'void':
      await voidIt(ws, inv.id);
      break;
    default:
      await markSent(ws, inv.id);
  }
  if (status === 'viewed') {
    await view(h, inv.id);
  } else if (status === 'partially_paid') {
    await paying(100);
  } else if (status === 'paid') {
    await paying(inv.total_amount);
  } else if (status === 'bad_debt') {
    await writeOff(h, inv.id);
  } else if (status === 'overdue') {
    await advance(h, 0);
  }
  const now = await invoiceOf(ws, inv.id);
  expect(now.status).toBe(status);
  return now;
}

/** Every status but draft. */
export const OUT: InvoiceStatus[] = [
  'sent',
  'viewed',
  'partially_paid',
  'paid',
  'overdue',
  'void',
  'bad_debt',
];
