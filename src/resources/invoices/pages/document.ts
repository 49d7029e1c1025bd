import type { ServiceContext } from '../../../platform/service-context';
import { addressLine, type InvoiceDoc, lineView } from '../../../web/homeowner/documents';
import { dollars } from '../../common/cents';
import { findJob } from '../../common/job';
import { customerName, findContact } from '../../contacts/api';
import { invoiceCents } from '../../money/api';
import type { Invoice } from '../schema';

// What the homeowner's page and PDF of an invoice show, by the money module's figures.

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
    customer: customerName(contact),
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
