import type { Family } from '../../platform/family';
import { scanOnJob } from '../common/on-job';
import { estimateEvents } from './events';
import { estimateRecords } from './present';
import { EstimateListSchema } from './schema';

// The estimates of a job: their events, and their list under the job.
export const estimates: Family = {
  name: 'estimates',
  records: estimateRecords,
  events: estimateEvents,
  onJob: {
    colls: ['estimates'],
    lists: [
      {
        path: 'estimates',
        summary: "The job's estimates",
        schema: EstimateListSchema,
        scan: (ctx, jobId, q, after) => scanOnJob(ctx, 'estimates', jobId, q, after),
      },
    ],
  },
};
