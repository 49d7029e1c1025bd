import type { Family } from '../../platform/family';
import { scanOnJob } from '../common/on-job';
import { paymentEvents } from './events';
import { paymentRecords } from './present';
import { PaymentListSchema } from './schema';

// The payments of a job: their events, and their list under the job.
export const payments: Family = {
  name: 'payments',
  records: paymentRecords,
  events: paymentEvents,
  onJob: {
    colls: ['payments'],
    lists: [
      {
        path: 'payments',
        summary: "The job's payments",
        schema: PaymentListSchema,
        scan: (ctx, jobId, q, after) => scanOnJob(ctx, 'payments', jobId, q, after),
      },
    ],
  },
};
