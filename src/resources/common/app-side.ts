import { createRoute, type OpenAPIHono, type z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { type AppEnv, appUrlFor } from '../../platform/app-env';
import { ApiError } from '../../platform/errors';
import type { Records } from '../../platform/family';
import { holderOf } from '../../platform/holder-of';
import { adminWriteErrors, jsonResponse } from '../../platform/openapi/responses';
import type { Runtime } from '../../platform/runtime';
import { appContext, type ServiceContext } from '../../platform/service-context';
import type { WorkspaceCollections } from '../../store';
import type { Name } from '../../store/collections';
import { byId, jsonBody, recordId } from './routing';

type Coll = Name<WorkspaceCollections>;

// App-side actions (DESIGN.md, control API): what a person does in the web app, or a homeowner
// on their pages. They name a record by id alone, and run as the owner of its workspace through
// the same services as the API, so the same events fire.

/** The workspace holding a record, as its owner in the web app sees it; 404 when none does. */
export function ownerOf(rt: Runtime, coll: Coll, id: string, appUrl: string): ServiceContext {
  const held = holderOf(rt.store, coll, id);
  if (held !== undefined) {
    return appContext(rt, held.workspaceId, appUrl);
  }
  throw new ApiError('not_found', `no such ${coll.replace(/s$/, '')}`);
}

interface Action<B extends z.ZodObject | undefined> {
  /** `POST /{coll}/{id}/{verb}`; `PATCH /{coll}/{id}` when verb is undefined. */
  verb?: string;
  operationId: string;
  summary: string;
  body?: B;
  /** Whether a body may be left out altogether (every field of it optional). */
  bodyOptional?: boolean;
}

/**
 * Mounts one app-side action on a record of `records`: it answers the record as GET /v1 shows it
 * (its links on the control API's origin), or the error of the service.
 */
export function appAction<K extends Coll, B extends z.ZodObject | undefined = undefined>(
  app: OpenAPIHono<AppEnv>,
  rt: Runtime,
  records: Records<K, unknown>,
  action: Action<B>,
  run: (
    ctx: ServiceContext,
    id: string,
    body: B extends z.ZodObject ? z.output<B> : undefined,
  ) => WorkspaceCollections[K],
): void {
  const route = createRoute({
    method: action.verb === undefined ? 'patch' : 'post',
    path:
      action.verb === undefined ? `/${records.coll}/{id}` : `/${records.coll}/{id}/${action.verb}`,
    operationId: action.operationId,
    summary: action.summary,
    ...byId,
    ...(action.body
      ? { request: { body: { ...jsonBody(action.body), required: !action.bodyOptional } } }
      : {}),
    responses: {
      200: jsonResponse(records.schema, 'The record as it now is'),
      ...adminWriteErrors('invalid_request', 'not_found', 'conflict'),
    },
  });
  app.openapi(route, (c: Context<AppEnv>) => {
    const id = recordId(c);
    const ctx = ownerOf(rt, records.coll, id, appUrlFor(rt.config, c.req.url));
    // An optional body left out is validated as none: its fields at their defaults.
    const sent = action.body ? (c.req.valid as (target: 'json') => unknown)('json') : undefined;
    const body = (
      action.body ? (sent ?? action.body.parse({})) : undefined
    ) as B extends z.ZodObject ? z.output<B> : undefined;
    const rec = run(ctx, id, body);
    return c.json(records.present(ctx, rec as never) as object, 200);
  });
}
