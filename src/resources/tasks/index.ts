import type { Family } from '../../platform/family';
import { pagingQuery } from '../../platform/paging';
import { taskEvents } from './events';
import { taskPages } from './pages';
import { taskRecords } from './present';
import { taskRoutes } from './routes';
import { TaskListSchema } from './schema';
import { listTasks } from './service';

export const tasks: Family = {
  name: 'tasks',
  routes: taskRoutes,
  records: taskRecords,
  events: taskEvents,
  onJob: {
    colls: ['tasks'],
    lists: [
      {
        path: 'tasks',
        summary: "The job's tasks and appointments",
        schema: TaskListSchema,
        query: pagingQuery,
        scan: (ctx, jobId, q, after) => listTasks(ctx, { ...q, job_id: jobId }, after),
      },
    ],
  },
  pages: taskPages,
  seed: () => import('./seed').then((m) => m.taskSeed),
};
