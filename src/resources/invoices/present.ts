import type { z } from '@hono/zod-openapi';
import type { ServiceContext } from '../../platform/context';
import { defineRecords, shape } from '../../platform/family';
import { type Invoice, InvoiceSchema } from './schema';
import { invoiceIsVisible } from './service';

// The homeowner's pay page is on while the invoice is out and not settled.
const PAYABLE = new Set(['sent', 'viewed', 'partially_paid', 'overdue']);

export const presentInvoice = (ctx: ServiceContext, i: Invoice): z.infer<typeof InvoiceSchema> =>
  shape(InvoiceSchema, i, {
    object: 'invoice',
    pdf_url: `${ctx.appUrl}/invoices/${i.id}/pdf`,
    url: `${ctx.appUrl}/invoices/${i.id}`,
    payment_url: PAYABLE.has(i.status) ? `${ctx.appUrl}/pay/${i.id}` : null,
  });

/** Invoices as the API shows them; a deleted job's are gone with it. */
export const invoiceRecords = defineRecords({
  coll: 'invoices',
  schema: InvoiceSchema,
  present: presentInvoice,
  visible: invoiceIsVisible,
  reads: [],
});
