import { randomBytes } from 'node:crypto';
import { ApiError } from '../../platform/errors';
import type { FileStorage, Incoming } from '../../platform/files/storage';
import { newId } from '../../platform/ids';
import { type ListQuery, timeFilter } from '../../platform/paging';
import type { ServiceContext } from '../../platform/service-context';
import type { Position } from '../../store';
import { findJob, jobIsLive, requireJob } from '../common/job';
import type { Inspected } from './inspect';
import type { FILE_CATEGORIES, FileRecord, FileUploadFields } from './schema';

/** An upload's bytes, received into a temp file, and what they were called and said to be. */
export interface Bytes {
  incoming: Incoming;
  size: number;
  filename: string | undefined;
}

/** What an upload must name before its bytes are fetched or kept: a job of this workspace. */
export function checkUpload(ctx: ServiceContext, input: Pick<FileUploadFields, 'job_id'>): void {
  if (input.job_id) {
    requireJob(ctx, input.job_id, 'job_id');
  }
}

/**
 * Adds an uploaded file: its bytes are moved into place and on disk before its record commits
 * (so a record never names bytes that are not there), and removed again if the record cannot be.
 */
export async function addFile(
  ctx: ServiceContext,
  storage: FileStorage,
  input: FileUploadFields,
  bytes: Bytes,
  seen: Inspected,
): Promise<FileRecord> {
  try {
    checkUpload(ctx, input);
  } catch (err) {
    await bytes.incoming.discard();
    throw err;
  }
  const id = newId();
  await storage.keep(bytes.incoming, ctx.workspace.id, id);
  try {
    return ctx.ws.transaction((tx) => {
      // The job may have gone while the bytes were written.
      checkUpload(ctx, input);
      return tx.put('files', {
        id,
        object: 'file',
        job_id: input.job_id ?? null,
        name: (input.name && printable(input.name)) || nameOf(bytes.filename),
        category: input.category ?? defaultCategory(seen),
        ...seen,
        size_bytes: bytes.size,
        description: input.description || null,
        tags: input.tags ?? [],
        uploaded_by_id: null, // as a note written through the API has no author
        created_at: ctx.clock.iso(),
        link_key: randomBytes(32).toString('hex'),
        bytes: 'disk',
      });
    });
  } catch (err) {
    await storage.remove(ctx.workspace.id, id);
    throw err;
  }
}

/** decisions.md, Files: an image or a video is a photo (the job's gallery); anything else a document. */
const defaultCategory = (seen: Inspected): (typeof FILE_CATEGORIES)[number] =>
  seen.is_photo || seen.is_video ? 'photo' : 'document';

/** A file's name from the one its part or URL gave: its last path segment, printable. */
function nameOf(filename: string | undefined): string {
  return printable((filename ?? '').split(/[\\/]/).pop() ?? '') || 'file';
}

/** A name without control characters (a name sent, or a filename), at most 255 characters. */
const printable = (name: string): string =>
  [...name]
    .filter((ch) => ch >= ' ' && ch !== '\u007f')
    .join('')
    .trim()
    .slice(0, 255);

/** A file of a deleted job is gone with it (until the job is restored). */
export function getFile(ctx: ServiceContext, id: string): FileRecord {
  const file = ctx.ws.get('files', id);
  if (!file || !jobIsLive(ctx, file.job_id)) {
    throw new ApiError('not_found', 'no such file');
  }
  return file;
}

export function listFiles(
  ctx: ServiceContext,
  q: ListQuery & { job_id?: string | undefined; category?: string | undefined },
  after: Position | undefined,
) {
  const inTime = timeFilter(q);
  return ctx.ws.scan('files', {
    after,
    on: q.job_id === undefined ? undefined : { field: 'job_id', value: q.job_id },
    limit: q.limit,
    where: (f) =>
      (q.job_id === undefined || f.job_id === q.job_id) &&
      (q.category === undefined || f.category === q.category) &&
      inTime(f) &&
      (f.job_id === null || findJob(ctx, f.job_id) !== undefined),
  });
}
