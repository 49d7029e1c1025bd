import type { z } from '@hono/zod-openapi';
import { defineRecords, shape } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';
import { jobIsLive } from '../common/job';
import { type Note, NoteSchema } from './schema';

export const presentNote = (ctx: ServiceContext, note: Note): z.infer<typeof NoteSchema> =>
  shape(NoteSchema, note, {
    object: 'note',
    author_name: note.author_id ? (ctx.ws.get('users', note.author_id)?.name ?? null) : null,
    url: `${ctx.appUrl}/jobs/${note.job_id}#note-${note.id}`,
  });

/** Notes as the API shows them; a deleted job's are gone with it. */
export const noteRecords = defineRecords({
  coll: 'notes',
  schema: NoteSchema,
  present: presentNote,
  visible: (ctx, n) => jobIsLive(ctx, n.job_id),
  reads: ['users'],
});
