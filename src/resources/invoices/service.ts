import { ApiError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { type ListQuery, timeFilter } from '../../platform/paging';
import type { ServiceContext } from '../../platform/service-context';
import type { Position, TxScope, WorkspaceCollections } from '../../store';
import { centralDate } from '../common/central-time';
import { sumDollars } from '../common/cents';
import { MAX_MONEY } from '../common/fields';
import { findJob, requireJob } from '../common/job';
import { toLines } from '../common/line-items';
import { findContact, requireContact } from '../contacts/api';
import { settled } from '../money/api';
import {
  type Invoice,
  type InvoiceCreate,
  type InvoiceListQuery,
  type InvoiceUpdate,
  NEW_INVOICE,
} from './schema';

type Ws = TxScope<WorkspaceCollections>;

/** An invoice is seen while what it bills is: its job, or (billed to a contact alone) its contact. */
export const invoiceIsVisible = (ctx: ServiceContext, inv: Invoice): boolean =>
  inv.job_id !== null
    ? findJob(ctx, inv.job_id) !== undefined
    : inv.contact_id === null || findContact(ctx, inv.contact_id) !== undefined;

export function getInvoice(ctx: ServiceContext, id: string): Invoice {
  const invoice = ctx.ws.get('invoices', id);
  if (!invoice || !invoiceIsVisible(ctx, invoice)) {
    throw new ApiError('not_found', 'no such invoice');
  }
  return invoice;
}

/** spec: numbered by the service, per workspace; a number is never given again. */
function nextNumber(ws: Ws): string {
  const counter = ws.get('counters', 'invoice_number') ?? { id: 'invoice_number', value: 1000 };
  const value = counter.value + 1;
  ws.put('counters', { id: 'invoice_number', value });
  return `INV-${value}`;
}

/** An estimate the invoice names: of this workspace, and of the invoice's job when it has one. */
function requireEstimate(ctx: ServiceContext, id: string, jobId: string | null): string {
  const estimate = ctx.ws.get('estimates', id);
  if (!estimate || (estimate.job_id !== null && findJob(ctx, estimate.job_id) === undefined)) {
    throw new ApiError(
      'invalid_request',
      'estimate_id is not an estimate of this workspace',
      'estimate_id',
    );
  }
  if (jobId !== null && estimate.job_id !== jobId) {
    throw new ApiError(
      'invalid_request',
      "estimate_id is not an estimate of the invoice's job",
      'estimate_id',
    );
  }
  return estimate.id;
}

function checkDates(inv: Pick<Invoice, 'issue_date' | 'due_date'>, input: { due_date?: unknown }) {
  if (inv.due_date !== null && inv.issue_date !== null && inv.due_date < inv.issue_date) {
    const field = input.due_date === undefined ? 'issue_date' : 'due_date';
    throw new ApiError('invalid_request', 'due_date is before issue_date', field);
  }
}

function checkDiscount(
  inv: Pick<Invoice, 'discount_type' | 'discount_value'>,
  input: { discount_value?: unknown },
) {
  if (inv.discount_type === 'percent' && (inv.discount_value ?? 0) > 100) {
    // The field the request sent: a type of percent over a stored amount names discount_type.
    const field = input.discount_value === undefined ? 'discount_type' : 'discount_value';
    throw new ApiError('invalid_request', 'a percent discount is at most 100', field);
  }
}

/** The terms a body sets, with references checked. */
function termsOf(
  ctx: ServiceContext,
  input: InvoiceCreate | InvoiceUpdate,
  jobId: string | null,
): Partial<Invoice> {
  const out: Partial<Invoice> = {};
  const plain = [
    'title',
    'purpose',
    'issue_date',
    'due_date',
    'tax_rate',
    'notes',
    'terms',
  ] as const;
  for (const key of plain) {
    const value = input[key];
    if (value !== undefined) {
      (out as Record<string, unknown>)[key] = value === '' ? null : value;
    }
  }
  if (input.allow_partial_payments !== undefined) {
    out.allow_partial_payments = input.allow_partial_payments ?? true;
  }
  if (input.contact_id !== undefined) {
    out.contact_id =
      input.contact_id === null ? null : requireContact(ctx, input.contact_id, 'contact_id').id;
  }
  if (input.estimate_id !== undefined) {
    out.estimate_id =
      input.estimate_id === null ? null : requireEstimate(ctx, input.estimate_id, jobId);
  }
  if (input.line_items !== undefined) {
    out.line_items = toLines(input.line_items);
  }
  // spec: a discount_value of 0 or null removes the discount; a value alone is an amount.
  if (input.discount_value !== undefined) {
    out.discount_value = input.discount_value === 0 ? null : input.discount_value;
  }
  // decisions.md: clearing the type clears the discount; the value alone would read as dollars.
  if (input.discount_type === null) {
    out.discount_value = null;
  }
  if (input.discount_type !== undefined) {
    out.discount_type = input.discount_type;
  }
  return out;
}

function tidyDiscount(inv: Invoice): Invoice {
  if (inv.discount_value === null) {
    return { ...inv, discount_type: null };
  }
  return inv.discount_type === null ? { ...inv, discount_type: 'amount' } : inv;
}

/**
 * decisions.md, Invoices: `purpose` fills the job figure it stands for. A claim-scope invoice sets
 * the RCV, a deductible one the deductible, a contract one the contract value (final_amount), to
 * the invoice's total; supplements_amount is the sum of the job's supplement invoices that are
 * not void. Depreciation and other invoices fill none.
 */
function fillJobFigure(ws: Ws, inv: Invoice, now: string): void {
  if (inv.job_id === null || inv.purpose === null) {
    return;
  }
  const job = ws.get('jobs', inv.job_id);
  if (!job) {
    return;
  }
  const next = { ...job };
  // A job's money figures are 0 to 1,000,000,000, as the job API takes them: an invoice that is
  // all credit sets its figure to 0, one whose tax takes it past the most sets the most.
  const figure = jobFigure(inv.total_amount);
  switch (inv.purpose) {
    case 'claim_scope':
      next.rcv_amount = figure;
      break;
    case 'deductible':
      next.deductible = figure;
      break;
    case 'contract':
      next.final_amount = figure;
      break;
    case 'supplement':
      next.supplements_amount = jobFigure(supplementsOf(ws, inv.job_id));
      break;
    default:
      return;
  }
  if (JSON.stringify(next) !== JSON.stringify(job)) {
    ws.put('jobs', { ...next, updated_at: now });
  }
}

const jobFigure = (dollars: number): number => Math.min(MAX_MONEY, Math.max(0, dollars));

const supplementsOf = (ws: Ws, jobId: string): number =>
  sumDollars(
    ws
      .all('invoices')
      .filter((i) => i.job_id === jobId && i.purpose === 'supplement' && i.status !== 'void')
      .map((i) => i.total_amount),
  );

/**
 * Writes an invoice with its figures worked out. A draft's terms fill the job figure of its
 * purpose; afterwards only the sum of supplements follows (a voided supplement leaves it), so a
 * figure a person changed on the job is not written over when the invoice merely moves.
 */
function write(ws: Ws, inv: Invoice, now: string, terms: boolean): Invoice {
  const out = ws.put('invoices', { ...settled(ws, inv, now), updated_at: now });
  if (terms || out.purpose === 'supplement') {
    fillJobFigure(ws, out, now);
  }
  return out;
}

export function createInvoice(ctx: ServiceContext, input: InvoiceCreate): Invoice {
  if (input.job_id === undefined && input.contact_id === undefined) {
    throw new ApiError(
      'invalid_request',
      'an invoice bills a job (job_id) or a contact (contact_id)',
      'job_id',
    );
  }
  const job = input.job_id === undefined ? undefined : requireJob(ctx, input.job_id, 'job_id');
  const terms = termsOf(ctx, input, job?.id ?? null);
  const now = ctx.clock.iso();
  const draft = tidyDiscount({
    ...NEW_INVOICE,
    id: newId(),
    issue_date: centralDate(ctx.clock.nowMs()),
    job_id: job?.id ?? null,
    // Who it bills: the job's homeowner unless the body names someone. A deleted homeowner is
    // no homeowner (the job shows homeowner_id null while the contact is deleted): billing it
    // would show the id of a record the API hides.
    contact_id:
      job?.homeowner_id != null && findContact(ctx, job.homeowner_id) !== undefined
        ? job.homeowner_id
        : null,
    created_at: now,
    updated_at: now,
    ...terms,
  });
  checkDates(draft, input);
  checkDiscount(draft, input);
  return ctx.ws.transaction((tx) =>
    write(tx, { ...draft, invoice_number: nextNumber(tx) }, now, true),
  );
}

const notDraft = (inv: Invoice, what: string) =>
  new ApiError(
    'conflict',
    `only a draft invoice can be ${what}; this one is ${inv.status}${inv.status === 'void' ? '' : ' (void it instead)'}`,
  );

export function updateInvoice(ctx: ServiceContext, id: string, input: InvoiceUpdate): Invoice {
  const invoice = getInvoice(ctx, id);
  if (invoice.status !== 'draft') {
    throw notDraft(invoice, 'changed');
  }
  const next = tidyDiscount({ ...invoice, ...termsOf(ctx, input, invoice.job_id) });
  if (next.job_id === null && next.contact_id === null) {
    throw new ApiError('invalid_request', 'an invoice without a job bills a contact', 'contact_id');
  }
  checkDates(next, input);
  checkDiscount(next, input);
  if (JSON.stringify(next) === JSON.stringify(invoice)) {
    return invoice;
  }
  const now = ctx.clock.iso();
  return ctx.ws.transaction((tx) => {
    const out = write(tx, next, now, true);
    // A supplement whose purpose changes leaves the job's sum of supplements (decisions.md:
    // supplements_amount sums the job's supplement invoices); write() only fills the figure of
    // the new purpose, so without this the old total stayed in the sum.
    if (invoice.purpose === 'supplement' && out.purpose !== 'supplement') {
      fillJobFigure(tx, { ...out, purpose: 'supplement' }, now);
    }
    return out;
  });
}

export function deleteInvoice(ctx: ServiceContext, id: string): Invoice {
  const invoice = getInvoice(ctx, id);
  if (invoice.status !== 'draft') {
    throw notDraft(invoice, 'deleted');
  }
  // spec, States: a draft is deleted, whatever else. Payments still expected against it (any
  // received would have moved it out of draft) then sit on the job, as a payment that names no
  // invoice does (spec, Payment), rather than naming an invoice that is gone.
  const now = ctx.clock.iso();
  ctx.ws.transaction((tx) => {
    for (const p of tx.all('payments')) {
      if (p.invoice_id === id) {
        tx.put('payments', { ...p, invoice_id: null, updated_at: now });
      }
    }
    tx.delete('invoices', id);
    if (invoice.purpose === 'supplement') {
      fillJobFigure(tx, { ...invoice, status: 'void' }, now);
    }
  });
  return invoice;
}

/** `now` is read once by the caller, so a stamp it sets (sent_at, written_off_at) equals updated_at. */
function move(
  ctx: ServiceContext,
  inv: Invoice,
  change: Partial<Invoice>,
  now = ctx.clock.iso(),
): Invoice {
  return ctx.ws.transaction((tx) => write(tx, { ...inv, ...change }, now, false));
}

/** spec, States: a draft goes out (its pay page turns on); one already out keeps its status. */
export function markSent(ctx: ServiceContext, id: string): Invoice {
  const invoice = getInvoice(ctx, id);
  if (invoice.status === 'void') {
    throw new ApiError('conflict', 'a void invoice cannot be sent');
  }
  if (invoice.sent_at !== null) {
    return invoice;
  }
  const now = ctx.clock.iso();
  return move(ctx, invoice, { sent_at: now }, now);
}

/** spec, States: any invoice not void becomes void; a void one is answered as it is. */
export function voidInvoice(ctx: ServiceContext, id: string): Invoice {
  const invoice = getInvoice(ctx, id);
  if (invoice.status === 'void') {
    return invoice;
  }
  return move(ctx, invoice, { status: 'void' });
}

/** The homeowner opens the pay page or the invoice: the first view of one that is out. */
export function viewInvoice(ctx: ServiceContext, id: string): Invoice {
  const invoice = getInvoice(ctx, id);
  if (invoice.sent_at === null) {
    throw new ApiError('conflict', 'the invoice has not been sent; the homeowner cannot open it');
  }
  if (invoice.first_viewed_at !== null) {
    return invoice;
  }
  const now = ctx.clock.iso();
  return move(ctx, invoice, { first_viewed_at: now }, now);
}

const COLLECTIBLE = new Set<Invoice['status']>(['sent', 'viewed', 'partially_paid', 'overdue']);

/** Written off: an invoice out and not paid in full. */
export function writeOff(ctx: ServiceContext, id: string): Invoice {
  const invoice = getInvoice(ctx, id);
  if (invoice.status === 'bad_debt') {
    return invoice;
  }
  if (!COLLECTIBLE.has(invoice.status)) {
    throw new ApiError(
      'conflict',
      `only an unpaid invoice that is out can be written off; this one is ${invoice.status}`,
    );
  }
  const now = ctx.clock.iso();
  return move(ctx, invoice, { status: 'bad_debt', written_off_at: now }, now);
}

export function listInvoices(
  ctx: ServiceContext,
  q: ListQuery & Partial<Omit<InvoiceListQuery, 'limit' | 'cursor'>>,
  after: Position | undefined,
) {
  const inTime = timeFilter(q);
  // A blank number filters nothing, as a blank job_number search does.
  const number = q.invoice_number?.trim().toLowerCase() || undefined;
  return ctx.ws.scan('invoices', {
    after,
    on: q.job_id === undefined ? undefined : { field: 'job_id', value: q.job_id },
    limit: q.limit,
    where: (i) =>
      inTime(i) &&
      (q.status === undefined || i.status === q.status) &&
      (q.job_id === undefined || i.job_id === q.job_id) &&
      (q.contact_id === undefined || i.contact_id === q.contact_id) &&
      (number === undefined || i.invoice_number?.toLowerCase() === number) &&
      invoiceIsVisible(ctx, i),
  });
}
