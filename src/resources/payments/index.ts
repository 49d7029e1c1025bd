import type { Family } from '../../platform/family';
import { paymentAdmin } from './admin';
import { paymentEvents } from './events';
import { paymentPages } from './pages';
import { paymentRecords } from './present';
import { paymentRoutes } from './routes';
import { PaymentListSchema } from './schema';
import { listPayments } from './service';

export const payments: Family = {
  name: 'payments',
  routes: paymentRoutes,
  records: paymentRecords,
  events: paymentEvents,
  admin: paymentAdmin,
  onJob: {
    colls: ['payments'],
    lists: [
      {
        path: 'payments',
        summary: "The job's payments",
        schema: PaymentListSchema,
        scan: (ctx, jobId, q, after) => listPayments(ctx, { ...q, job_id: jobId }, after),
      },
    ],
  },
  pages: paymentPages,
  seed: () => import('./seed').then((m) => m.paymentSeed),
};
