import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { type AppEnv, appUrlFor } from '../platform/app-env';
import { ApiError } from '../platform/errors';
import type { Family } from '../platform/family';
import { adminWriteErrors, jsonResponse } from '../platform/openapi/responses';
import type { Runtime } from '../platform/runtime';
import { appContext } from '../platform/service-context';
import { FAMILIES } from '../resources';
import { byId, recordId } from '../resources/common/routing';
import { restore } from '../resources/recoverable';

// POST /__admin/<records>/{id}/restore, for every family whose deleted records wait 30 days in
// the recoverable area (jobs, contacts): what a person does in the app's trash.

export function restoreAdmin(rt: Runtime) {
  const app = new OpenAPIHono<AppEnv>();
  for (const family of FAMILIES) {
    const { records, recoverable } = family;
    if (records && recoverable) {
      mount(app, rt, family, records, recoverable);
    }
  }
  return app;
}

function mount(
  app: OpenAPIHono<AppEnv>,
  rt: Runtime,
  family: Family,
  records: NonNullable<Family['records']>,
  recoverable: NonNullable<Family['recoverable']>,
) {
  const noun = family.events?.resource ?? family.name;
  const route = createRoute({
    method: 'post',
    path: `/${records.coll}/{id}/restore`,
    operationId: `restore${noun[0]?.toUpperCase()}${noun.slice(1)}`,
    summary: `Bring back a deleted ${recoverable.what}, within its 30 days`,
    ...byId,
    responses: {
      200: jsonResponse(recoverable.schema, 'The record, live again'),
      ...adminWriteErrors('invalid_request', 'not_found'),
    },
  });
  app.openapi(route, (c) => {
    const found = restore(rt, records.coll, recordId(c));
    if (!found) {
      throw new ApiError('not_found', `no such ${noun} (never made, or purged after 30 days)`);
    }
    const ctx = appContext(rt, found.workspaceId, appUrlFor(rt.config, c.req.url));
    return c.json(records.present(ctx, found.record) as object, 200);
  });
}
