import type { Family } from '../../platform/family';
import { jobEvents } from './events';
import { jobPages } from './pages';
import { jobRecords } from './present';
import { jobRoutes } from './routes';
import { JobListSchema, JobSchema } from './schema';
import { jobsOfContact, purgeJob } from './service';

export const jobs: Family = {
  name: 'jobs',
  routes: jobRoutes,
  records: jobRecords,
  events: jobEvents,
  // A job's stage moves (its timeline) go with it.
  onJob: { colls: ['timeline'] },
  // spec, Jobs: a job's notes, files, tasks, estimates, invoices and payments, in that order.
  children: ['notes', 'files', 'tasks', 'estimates', 'invoices', 'payments'],
  onContact: {
    lists: [
      {
        path: 'jobs',
        summary:
          'Every job the person is on (homeowner, adjuster or secondary contact), archived included',
        answers: 'A page of jobs',
        schema: JobListSchema,
        scan: jobsOfContact,
      },
    ],
  },
  recoverable: {
    what: 'job, with everything on it',
    noun: 'job',
    schema: JobSchema,
    purge: purgeJob,
  },
  pages: jobPages,
  seed: () => import('./seed').then((m) => m.jobSeed),
};
