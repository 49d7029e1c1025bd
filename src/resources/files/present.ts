import type { z } from '@hono/zod-openapi';
import { defineRecords, shape } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';
import { jobIsLive } from '../common/job';
import { downloadUrl, windowOf } from './links';
import { type FileRecord, FileSchema } from './schema';

type FileOut = z.infer<typeof FileSchema>;

export const presentFile = (ctx: ServiceContext, f: FileRecord): FileOut =>
  shape(FileSchema, f, {
    object: 'file',
    uploaded_by_name: f.uploaded_by_id
      ? (ctx.ws.get('users', f.uploaded_by_id)?.name ?? null)
      : null,
    download_url: downloadUrl(ctx.appUrl, f, ctx.clock.nowMs()),
    url: `${ctx.appUrl}/files/${f.id}`,
  });

/**
 * Files as the API shows them; a deleted job's are gone with it. Their kept JSON text holds a
 * download link that expires on the clock, so it is kept for the hour its links are made in
 * (links.ts) and made afresh in the next: a GET after the clock moves never answers a link that
 * no longer works.
 */
export const fileRecords = defineRecords({
  coll: 'files',
  schema: FileSchema,
  present: presentFile,
  visible: (ctx, rec) => jobIsLive(ctx, rec.job_id),
  reads: ['users'],
  keptFor: (ctx) => windowOf(ctx.clock.nowMs()),
});
