import type { Family } from '../../platform/family';
import { invoiceAdmin } from './admin';
import { invoiceEvents } from './events';
import { invoiceOverdue } from './overdue';
import { invoicePages } from './pages';
import { invoiceRecords } from './present';
import { invoiceRoutes } from './routes';
import { InvoiceListSchema } from './schema';
import { listInvoices } from './service';

export const invoices: Family = {
  name: 'invoices',
  routes: invoiceRoutes,
  records: invoiceRecords,
  events: invoiceEvents,
  due: [invoiceOverdue],
  admin: invoiceAdmin,
  onJob: {
    colls: ['invoices'],
    lists: [
      {
        path: 'invoices',
        summary: "The job's invoices",
        schema: InvoiceListSchema,
        scan: (ctx, jobId, q, after) => listInvoices(ctx, { ...q, job_id: jobId }, after),
      },
    ],
  },
  pages: invoicePages,
  seed: () => import('./seed').then((m) => m.invoiceSeed),
};
