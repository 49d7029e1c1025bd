import type { z } from '@hono/zod-openapi';
import type { ServiceContext } from '../../platform/context';
import { type Records, shape } from '../../platform/family';
import { ShownTexts } from '../../platform/family/texts';
import { jobIsLive } from '../jobs/visibility';
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

const visible = (ctx: ServiceContext, rec: FileRecord) => jobIsLive(ctx, rec.job_id);
const READS = ['users'] as const;

/**
 * Files as the API shows them; a deleted job's are gone with it. Their kept JSON text (see
 * Records.text) holds a download link that expires on the clock, so it is kept for the hour its
 * links are made in (links.ts) and made afresh in the next: a GET after the clock moves never
 * answers a link that no longer works.
 */
export const fileRecords: Records<'files', FileOut> = (() => {
  let hour: number | undefined;
  let kept = new ShownTexts<FileRecord>(READS);
  const current = (ctx: ServiceContext) => {
    const now = windowOf(ctx.clock.nowMs());
    if (now !== hour) {
      hour = now;
      kept = new ShownTexts<FileRecord>(READS);
    }
    return kept;
  };
  return {
    coll: 'files',
    schema: FileSchema,
    present: presentFile,
    presentAll: (ctx) => (rec) => presentFile(ctx, rec),
    visible,
    text: (ctx, rec) => current(ctx).text(ctx, rec, () => presentFile(ctx, rec)),
    texts: (ctx) => current(ctx).texts(ctx, (rec) => presentFile(ctx, rec)),
  };
})();
