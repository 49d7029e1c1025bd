import { z } from '@hono/zod-openapi';
import type { Runtime, ServiceContext } from '../../context';
import { requireWrite } from '../../platform/auth';
import {
  baseErrors,
  errorResponses,
  jsonResponse,
  writeErrors,
} from '../../platform/openapi/responses';
import { DeletedSchema } from '../../platform/openapi/schemas';
import { listBody, pageStart } from '../../platform/paging';
import type { Position, Rec } from '../../store';

export const idParam = z.object({
  id: z.uuid().openapi({ param: { name: 'id', in: 'path' }, description: 'The record id' }),
});

/** A JSON request body validated by `schema`. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

/** The answers every read may give. */
export const readErrors = () => errorResponses('invalid_request', ...baseErrors);
/** The answers every read of one record may give. */
export const readOneErrors = () => errorResponses('invalid_request', 'not_found', ...baseErrors);
/** The answers every write may give, a write to one record adding 404. */
export const changeErrors = (one = false) =>
  errorResponses(...writeErrors, ...(one ? (['not_found'] as const) : []), ...baseErrors);

export const writeOnly = [requireWrite()];

export const deletedResponse = () => jsonResponse(DeletedSchema, 'Deleted confirmation');

/** A page of `list`: the cursor decoded for this workspace and list, the next one sealed. */
export function paged<R extends Rec, T>(
  rt: Runtime,
  ctx: ServiceContext,
  list: string,
  q: { cursor?: string | undefined },
  scan: (after: Position | undefined) => { items: R[]; hasMore: boolean },
  present: (rec: R) => T,
) {
  return listBody(rt, ctx, list, scan(pageStart(rt, ctx, list, q)), present);
}
