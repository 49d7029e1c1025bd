import type { Family } from '../../platform/family';
import { estimateAdmin } from './admin';
import { estimateEvents } from './events';
import { estimatePages } from './pages';
import { estimateRecords } from './present';
import { estimateRoutes } from './routes';
import { EstimateListSchema } from './schema';
import { estimateExpiry, listEstimates } from './service';

export const estimates: Family = {
  name: 'estimates',
  routes: estimateRoutes,
  records: estimateRecords,
  events: estimateEvents,
  due: [estimateExpiry],
  admin: estimateAdmin,
  onJob: {
    colls: ['estimates'],
    lists: [
      {
        path: 'estimates',
        summary: "The job's estimates",
        schema: EstimateListSchema,
        scan: (ctx, jobId, q, after) => listEstimates(ctx, { ...q, job_id: jobId }, after),
      },
    ],
  },
  pages: estimatePages,
  seed: () => import('./seed').then((m) => m.estimateSeed),
};
