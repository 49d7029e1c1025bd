import { ApiError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { type ListQuery, timeFilter } from '../../platform/paging';
import type { ServiceContext } from '../../platform/service-context';
import type { Position, TxScope, WorkspaceCollections } from '../../store';
import { jobIsLive, requireJob } from '../common/job';
import type { Note } from './schema';

/** Writes a note in the caller's transaction (a job's first note is made with the job). */
export function putNote(
  tx: TxScope<WorkspaceCollections>,
  fields: { job_id: string; content: string; author_id: string | null; now: string },
): Note {
  return tx.put('notes', {
    id: newId(),
    object: 'note',
    job_id: fields.job_id,
    content: fields.content,
    author_id: fields.author_id,
    created_at: fields.now,
    updated_at: fields.now,
  });
}

export function createNote(ctx: ServiceContext, input: { job_id: string; content: string }): Note {
  requireJob(ctx, input.job_id, 'job_id');
  return ctx.ws.transaction((tx) =>
    putNote(tx, {
      job_id: input.job_id,
      content: input.content,
      author_id: null,
      now: ctx.clock.iso(),
    }),
  );
}

/** A note of a deleted job is gone with it (until the job is restored). */
export function getNote(ctx: ServiceContext, id: string): Note {
  const note = ctx.ws.get('notes', id);
  if (!note || !jobIsLive(ctx, note.job_id)) {
    throw new ApiError('not_found', 'no such note');
  }
  return note;
}

export function listNotes(
  ctx: ServiceContext,
  q: ListQuery & { job_id?: string | undefined },
  after: Position | undefined,
) {
  const inTime = timeFilter(q);
  return ctx.ws.scan('notes', {
    after,
    on: q.job_id === undefined ? undefined : { field: 'job_id', value: q.job_id },
    limit: q.limit,
    where: (n) =>
      (q.job_id === undefined || n.job_id === q.job_id) && inTime(n) && jobIsLive(ctx, n.job_id),
  });
}
