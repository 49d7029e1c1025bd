import type { z } from '@hono/zod-openapi';
import { defineRecords, shape } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';
import { type Invoice, InvoiceSchema } from './schema';
import { invoiceIsVisible } from './service';

// The homeowner's pay page is on while the invoice is out and not settled. Out means sent: a
// draft a payment was logged against is partially paid, yet the homeowner has not been sent it.
const PAYABLE = new Set(['sent', 'viewed', 'partially_paid', 'overdue']);
const payable = (i: Invoice) => i.sent_at !== null && PAYABLE.has(i.status);

export const presentInvoice = (ctx: ServiceContext, i: Invoice): z.infer<typeof InvoiceSchema> =>
  shape(InvoiceSchema, i, {
    object: 'invoice',
    pdf_url: `${ctx.appUrl}/invoices/${i.id}/pdf`,
    url: `${ctx.appUrl}/invoices/${i.id}`,
    payment_url: payable(i) ? `${ctx.appUrl}/pay/${i.id}` : null,
  });

/** Invoices as the API shows them; a deleted job's are gone with it. */
export const invoiceRecords = defineRecords({
  coll: 'invoices',
  schema: InvoiceSchema,
  present: presentInvoice,
  visible: invoiceIsVisible,
  reads: [],
});
