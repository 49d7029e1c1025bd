import { createRoute, type OpenAPIHono, type z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../../platform/app-env';
import { requireWrite } from '../../platform/auth';
import { ApiError } from '../../platform/errors';
import { errorResponse } from '../../platform/errors/handler';
import type { Page } from '../../platform/family';
import { jsonText } from '../../platform/http/json-text';
import {
  baseErrors,
  errorResponses,
  jsonResponse,
  writeErrors,
} from '../../platform/openapi/responses';
import { DeletedSchema } from '../../platform/openapi/schemas';
import { type ListBody, listJson, pageStart, wholeListJson } from '../../platform/paging';
import type { Runtime } from '../../platform/runtime';
import type { ServiceContext } from '../../platform/service-context';
import type { Position, Rec } from '../../store';

// decisions.md: any text is an id to look up, and one of another form than a UUID names no
// record: 404, never 400. The document says so, rather than a format svc does not enforce.
const ID_DESCRIPTION =
  "The record's id, a UUID (any case); an id of any other form names no record and is 404";
const ID_PARAMETER = {
  name: 'id',
  in: 'path',
  required: true,
  description: ID_DESCRIPTION,
  schema: { type: 'string', description: ID_DESCRIPTION },
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

/** The answers every read of one record may give: none of it is refused as malformed. */
export const readOneErrors = () => errorResponses(...oneRecord, ...baseErrors);
/** The answers a list under one record (its query checked) may give. */
export const readUnderErrors = () => errorResponses('invalid_request', ...oneRecord, ...baseErrors);
/** The answers every write may give, a write to one record adding 404 and 405. */
export const changeErrors = (one = false) =>
  errorResponses(...writeErrors, ...(one ? oneRecord : []), ...baseErrors);

export const writeOnly = [requireWrite()];

/**
 * A field the API refuses whatever its value (spec, Scope rule 4: sms_consent): the document
 * does not offer it, and a body that sends it anyway is 400 naming it, rather than quietly
 * stored without it.
 */
export const refuseField =
  (field: string, message: string): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    let body: unknown;
    try {
      body = await c.req.json(); // kept by Hono: the validator reads it again, or refuses it
    } catch {
      body = undefined;
    }
    if (typeof body === 'object' && body !== null && Object.hasOwn(body, field)) {
      throw new ApiError('invalid_request', message, field);
    }
    await next();
  };

/** The answers of a write a read-only credential may also make (subscribing to webhooks). */
export const anyKeyChangeErrors = (one = false) =>
  errorResponses(
    ...writeErrors.filter((code) => code !== 'forbidden'),
    ...(one ? oneRecord : []),
    ...baseErrors,
  );

export const deletedResponse = () => jsonResponse(DeletedSchema, 'Deleted confirmation');

// Answers are made from each record's kept JSON (Records.json): presenting and serialising the
// same records again for every read was most of what a read cost.

/** What an answer reads of a family's records (see Records): their JSON, typed as presented. */
interface Shown<R, Out> {
  present(ctx: ServiceContext, rec: R): Out;
  json(ctx: ServiceContext, rec: R): Buffer<ArrayBuffer>;
  jsons(ctx: ServiceContext): (rec: R) => Buffer<ArrayBuffer>;
}

/** One record, as GET shows it. */
export const recordAnswer = <R extends Rec, Out, S extends ContentfulStatusCode>(
  c: Context<AppEnv>,
  records: Shown<R, Out>,
  rec: R,
  status: S,
) => jsonText<Out, S>(c, records.json(c.get('ctx'), rec), status);

/**
 * A page of `list`: the cursor decoded for this workspace and list, the records scanned from
 * it, the next cursor sealed.
 */
export function pageAnswer<R extends Rec, Out>(
  c: Context<AppEnv>,
  deps: Pick<Runtime, 'cursors'>,
  list: string,
  q: { cursor?: string | undefined },
  scan: (after: Position | undefined) => Page<R>,
  records: Shown<R, Out>,
) {
  const ctx = c.get('ctx');
  const page = scan(pageStart(deps, ctx, list, q));
  return jsonText<ListBody<Out>, 200>(c, listJson(deps, ctx, list, page, records.jsons(ctx)), 200);
}

/** Records in one list that is not paged (searches). */
export const wholeAnswer = <R extends Rec, Out>(
  c: Context<AppEnv>,
  records: Shown<R, Out>,
  found: R[],
) => jsonText<ListBody<Out>, 200>(c, wholeListJson(found.map(records.jsons(c.get('ctx')))), 200);

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

// The operations most record families have, declared alike: a page of them, one made, one read,
// one changed. Each family names its own paths, ids and schemas.

interface Operation<P extends string> {
  path: P;
  operationId: string;
  summary: string;
  tags: string[];
}

/** GET of a paged list, its query checked. */
export const listOperation = <P extends string, Q extends z.ZodObject, S extends z.ZodType>(
  op: Operation<P> & { query: Q; schema: S; description: string },
) =>
  createRoute({
    method: 'get',
    path: op.path,
    operationId: op.operationId,
    summary: op.summary,
    tags: op.tags,
    request: { query: op.query },
    responses: { 200: jsonResponse(op.schema, op.description), ...readErrors() },
  });

/** POST of a new record: write credentials only, 201 with it. */
export const createOperation = <P extends string, B extends z.ZodType, S extends z.ZodType>(
  op: Operation<P> & { body: B; schema: S; description: string },
) =>
  createRoute({
    method: 'post',
    path: op.path,
    operationId: op.operationId,
    summary: op.summary,
    tags: op.tags,
    middleware: writeOnly,
    request: { body: jsonBody(op.body) },
    responses: { 201: jsonResponse(op.schema, op.description), ...changeErrors() },
  });

/** GET of one record by id. */
export const getOperation = <P extends string, S extends z.ZodType>(
  op: Operation<P> & { schema: S; description: string },
) =>
  createRoute({
    method: 'get',
    path: op.path,
    operationId: op.operationId,
    summary: op.summary,
    tags: op.tags,
    ...byId,
    responses: { 200: jsonResponse(op.schema, op.description), ...readOneErrors() },
  });

/** PATCH of one record by id: write credentials only, 200 with it as it now is. */
export const updateOperation = <P extends string, B extends z.ZodType, S extends z.ZodType>(
  op: Operation<P> & { body: B; schema: S; description: string },
) =>
  createRoute({
    method: 'patch',
    path: op.path,
    operationId: op.operationId,
    summary: op.summary,
    tags: op.tags,
    middleware: writeOnly,
    request: { body: jsonBody(op.body) },
    ...byId,
    responses: { 200: jsonResponse(op.schema, op.description), ...changeErrors(true) },
  });
