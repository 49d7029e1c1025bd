import type { ServiceContext } from '../../platform/service-context';
import { dollars, lineCents, toCents } from '../../resources/common/cents';
import type { Line } from '../../resources/common/line-items';
import { fullName } from '../../resources/contacts/present';
import type { Contact } from '../../resources/contacts/schema';
import { findContact } from '../../resources/contacts/service';
import { estimateFigures } from '../../resources/estimates/figures';
import type { Estimate } from '../../resources/estimates/schema';
import type { Invoice } from '../../resources/invoices/schema';
import type { Job } from '../../resources/jobs/schema';
import { findJob } from '../../resources/jobs/visibility';
import { invoiceCents } from '../../resources/money';

// What the homeowner's pages and PDFs show of an estimate or an invoice, worked out once from the
// record by the families' own rules (estimateFigures, invoiceCents), so the page, the PDF and
// GET /v1 never disagree on a figure.

export interface LineView {
  name: string;
  quantity: number;
  unitPrice: number | null;
  amount: number | null;
  taxable?: boolean;
}

export interface Party {
  company: string;
  customer: string | null;
  address: string | null;
}

export interface EstimateDoc extends Party {
  number: string;
  title: string;
  documentType: string;
  validUntil: string | null;
  sentAt: string | null;
  scope: LineView[];
  packages: { name: string; lines: LineView[]; total: number | null }[];
  upgrades: { name: string; price: number }[];
  /** One price for the whole job, when the estimate has one. */
  price: number | null;
  total: number | null;
  /** What the total is: the price for the whole job stands until a package is chosen. */
  totalLabel: 'Total' | 'Price for the whole job';
  upgradesTotal: number | null;
  selectedTier: string | null;
  signerName: string | null;
  signedAt: string | null;
}

export interface InvoiceDoc extends Party {
  number: string;
  title: string | null;
  issueDate: string | null;
  dueDate: string | null;
  lines: LineView[];
  subtotal: number | null;
  discount: number | null;
  tax: number | null;
  taxRate: number | null;
  total: number;
  paid: number;
  balance: number;
  notes: string | null;
  terms: string | null;
}

const lineView = (l: Line): LineView => ({
  name: l.name,
  quantity: l.quantity,
  unitPrice: l.unit_price,
  amount: l.unit_price === null ? null : dollars(lineCents(l.quantity, l.unit_price)),
  taxable: l.taxable,
});

/** A contact's name as the API works it out, else its company. */
const nameOf = (c: Contact | undefined): string | null =>
  c ? (fullName(c) ?? c.company ?? null) : null;

/** A street address on one line: street, city, state and ZIP, leaving out what is unknown. */
export function addressLine(
  a: Pick<Job, 'city' | 'state' | 'postal_code'> & { address: string | null },
): string | null {
  const place = [a.city, [a.state, a.postal_code].filter((p) => p).join(' ')]
    .filter((p) => p)
    .join(', ');
  return [a.address, place].filter((p) => p).join(', ') || null;
}

export function estimateDoc(ctx: ServiceContext, e: Estimate): EstimateDoc {
  const job = e.job_id === null ? undefined : findJob(ctx, e.job_id);
  const figures = estimateFigures(e);
  return {
    company: ctx.workspace.name,
    customer: nameOf(job?.homeowner_id ? findContact(ctx, job.homeowner_id) : undefined),
    address: job ? addressLine(job) : null,
    number: e.estimate_number ?? e.id,
    title: e.title ?? 'Estimate',
    documentType: e.document_type === 'estimate' ? 'Estimate' : 'Proposal',
    validUntil: e.valid_until,
    sentAt: e.sent_at,
    scope: e.scope.map(lineView),
    packages: e.packages.map((p) => ({
      name: p.name,
      lines: p.lines.map(lineView),
      total: figures.package_totals?.[p.name] ?? null,
    })),
    upgrades: e.upgrades.map((u) => ({ name: u.name, price: u.price })),
    price: e.price === null ? null : dollars(toCents(e.price)),
    total: figures.total,
    totalLabel: e.price !== null && e.selected_tier === null ? 'Price for the whole job' : 'Total',
    upgradesTotal: figures.upgrades_total,
    selectedTier: e.selected_tier,
    signerName: e.signer_name,
    signedAt: e.signed_at,
  };
}

export function invoiceDoc(ctx: ServiceContext, inv: Invoice): InvoiceDoc {
  const job = inv.job_id === null ? undefined : findJob(ctx, inv.job_id);
  const contact =
    inv.contact_id !== null
      ? findContact(ctx, inv.contact_id)
      : job?.homeowner_id
        ? findContact(ctx, job.homeowner_id)
        : undefined;
  const cents = invoiceCents(inv);
  const money = (v: bigint | null) => (v === null ? null : dollars(v));
  return {
    company: ctx.workspace.name,
    customer: nameOf(contact),
    address: job ? addressLine(job) : contact ? addressLine(contact) : null,
    number: inv.invoice_number ?? inv.id,
    title: inv.title,
    issueDate: inv.issue_date,
    dueDate: inv.due_date,
    lines: inv.line_items.map(lineView),
    subtotal: money(cents.subtotal),
    discount: money(cents.discount),
    tax: money(cents.tax),
    taxRate: inv.tax_rate,
    total: inv.total_amount,
    paid: inv.amount_paid,
    balance: inv.balance_due,
    notes: inv.notes,
    terms: inv.terms,
  };
}
