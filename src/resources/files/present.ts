import type { z } from '@hono/zod-openapi';
import type { ServiceContext } from '../../platform/context';
import { defineRecords, shape } from '../../platform/family';
import { jobIsLive } from '../jobs/visibility';
import { type FileRecord, FileSchema } from './schema';

export const presentFile = (ctx: ServiceContext, f: FileRecord): z.infer<typeof FileSchema> =>
  shape(FileSchema, f, {
    object: 'file',
    uploaded_by_name: f.uploaded_by_id
      ? (ctx.ws.get('users', f.uploaded_by_id)?.name ?? null)
      : null,
    download_url: `${ctx.appUrl}/files/${f.id}/download`,
    url: `${ctx.appUrl}/files/${f.id}`,
  });

/** Files as the API shows them; a deleted job's are gone with it. */
export const fileRecords = defineRecords({
  coll: 'files',
  schema: FileSchema,
  present: presentFile,
  visible: (ctx, rec) => jobIsLive(ctx, rec.job_id),
  reads: ['users'],
});
