import type { Family } from '../../platform/family';
import { noteEvents } from './events';
import { notePages } from './pages';
import { noteRecords } from './present';
import { noteRoutes } from './routes';
import { NoteListSchema } from './schema';
import { listNotes } from './service';

export const notes: Family = {
  name: 'notes',
  routes: noteRoutes,
  records: noteRecords,
  events: noteEvents,
  onJob: {
    colls: ['notes'],
    lists: [
      {
        path: 'notes',
        summary: "The job's notes",
        schema: NoteListSchema,
        scan: (ctx, jobId, q, after) => listNotes(ctx, { ...q, job_id: jobId }, after),
      },
    ],
  },
  pages: notePages,
  seed: () => import('./seed').then((m) => m.noteSeed),
};
