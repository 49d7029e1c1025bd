import type { OpenAPIHono, z } from '@hono/zod-openapi';
import { requireWrite } from '../../platform/auth';
import type { AppEnv, ServiceContext } from '../../platform/context';
import { ApiError } from '../../platform/errors';
import { errorResponse } from '../../platform/errors/handler';
import {
  baseErrors,
  errorResponses,
  jsonResponse,
  writeErrors,
} from '../../platform/openapi/responses';
import { DeletedSchema } from '../../platform/openapi/schemas';
import { listBody, listText, pageStart } from '../../platform/paging';
import type { Runtime } from '../../runtime';
import type { Position, Rec } from '../../store';

const ID_PARAMETER = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The record id',
  schema: { type: 'string', format: 'uuid', description: 'The record id' },
} as const;

/**
 * A route's `{id}` path parameter, for its document; handlers read it with recordId. There is no
 * validator: any text is an id to look up (see recordId), and the one it had cost a twentieth of
 * what a small read cost.
 */
export const byId = { parameters: [ID_PARAMETER] };

// spec, Errors: 404 is "no such record in this workspace", and an id of any other form names none
// either, so it is not refused as malformed; upper case names the same record (decisions.md).
export const recordId = (c: { req: { param(name: 'id'): string } }): string =>
  c.req.param('id').toLowerCase();

/** A JSON request body validated by `schema`. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

/** The answers every read may give. */
export const readErrors = () => errorResponses('invalid_request', ...baseErrors);
// A path with an {id} also answers 405 when a static path sits where the id would (a PATCH of
// /jobs/search reaches the operation PATCH /jobs/{id} as far as routing goes).
const oneRecord = ['not_found', 'method_not_allowed'] as const;

/** The answers every read of one record may give. */
export const readOneErrors = () => errorResponses('invalid_request', ...oneRecord, ...baseErrors);
/** The answers every write may give, a write to one record adding 404 and 405. */
export const changeErrors = (one = false) =>
  errorResponses(...writeErrors, ...(one ? oneRecord : []), ...baseErrors);

export const writeOnly = [requireWrite()];

/** The answers of a write a read-only credential may also make (subscribing to webhooks). */
export const anyKeyChangeErrors = (one = false) =>
  errorResponses(
    ...writeErrors.filter((code) => code !== 'forbidden'),
    ...(one ? oneRecord : []),
    ...baseErrors,
  );

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

/** `paged` as JSON text, from the JSON text of each record (see ShownTexts). */
export function pagedText<R extends Rec>(
  rt: Runtime,
  ctx: ServiceContext,
  list: string,
  q: { cursor?: string | undefined },
  scan: (after: Position | undefined) => { items: R[]; hasMore: boolean },
  text: (rec: R) => string,
): string {
  return listText(rt, ctx, list, scan(pageStart(rt, ctx, list, q)), text);
}

/**
 * spec, Errors: a known path with the wrong verb is 405. A static path that sits where a
 * parameter could (`/jobs/search` beside `/jobs/{id}`) would otherwise hand the other verbs to the
 * parameter route; registered right after its GET, this answers them.
 */
export function onlyGet(app: OpenAPIHono<AppEnv>, path: string): void {
  app.all(path, (c) =>
    errorResponse(
      c,
      new ApiError(
        'method_not_allowed',
        `${c.req.method} is not allowed here; use GET, HEAD`,
        undefined,
        {
          Allow: 'GET, HEAD',
        },
      ),
    ),
  );
}
