import { z } from '@hono/zod-openapi';
import type { Family } from '../../platform/family';
import { pagingQuery } from '../../platform/paging';
import { scanOnJob } from '../common/on-job';
import { downloadRoutes } from './download';
import { fileEvents } from './events';
import { filePages } from './pages';
import { fileRecords } from './present';
import { fileRoutes } from './routes';
import { FILE_CATEGORIES, FileListSchema } from './schema';

// spec, Jobs: /jobs/{id}/files also narrows by category; /photos is files of category photo.
const FileQuery = pagingQuery.extend({ category: z.enum(FILE_CATEGORIES).optional() });

export const files: Family = {
  name: 'files',
  routes: fileRoutes,
  records: fileRecords,
  events: fileEvents,
  onJob: {
    colls: ['files'],
    lists: [
      {
        path: 'files',
        summary: "The job's files",
        schema: FileListSchema,
        query: FileQuery,
        scan: (ctx, jobId, q, after) =>
          scanOnJob(
            ctx,
            'files',
            jobId,
            q,
            after,
            (f) => q.category === undefined || f.category === q.category,
          ),
      },
      {
        path: 'photos',
        summary: "The job's photos",
        schema: FileListSchema,
        scan: (ctx, jobId, q, after) =>
          scanOnJob(ctx, 'files', jobId, q, after, (f) => f.category === 'photo'),
      },
    ],
  },
  links: downloadRoutes,
  pages: filePages,
  seed: () => import('./seed').then((m) => m.fileSeed),
};
