import type { z } from '@hono/zod-openapi';
import type { ServiceContext } from '../../platform/context';
import type { FileRecord, FileSchema } from './schema';

export const presentFile = (ctx: ServiceContext, f: FileRecord): z.infer<typeof FileSchema> => ({
  ...f,
  object: 'file',
  uploaded_by_name: f.uploaded_by_id ? (ctx.ws.get('users', f.uploaded_by_id)?.name ?? null) : null,
  download_url: `${ctx.appUrl}/files/${f.id}/download`,
  url: `${ctx.appUrl}/files/${f.id}`,
});
