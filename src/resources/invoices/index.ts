import type { Family } from '../../platform/family';
import { scanOnJob } from '../common/on-job';
import { invoiceEvents } from './events';
import { invoiceRecords } from './present';
import { InvoiceListSchema } from './schema';

// The invoices of a job: their events, and their list under the job.
export const invoices: Family = {
  name: 'invoices',
  records: invoiceRecords,
  events: invoiceEvents,
  onJob: {
    colls: ['invoices'],
    lists: [
      {
        path: 'invoices',
        summary: "The job's invoices",
        schema: InvoiceListSchema,
        scan: (ctx, jobId, q, after) => scanOnJob(ctx, 'invoices', jobId, q, after),
      },
    ],
  },
};
