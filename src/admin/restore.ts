import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { type AppEnv, appContext } from '../platform/context';
import { ApiError } from '../platform/errors';
import { adminWriteErrors, jsonResponse } from '../platform/openapi/responses';
import { byId, recordId } from '../resources/common/routing';
import { ContactSchema } from '../resources/contacts/schema';
import { presentContact } from '../resources/contacts/service';
import { presentJob } from '../resources/jobs/present';
import { JobSchema } from '../resources/jobs/schema';
import { restore } from '../resources/recoverable';
import type { Runtime } from '../runtime';

const route = (kind: 'jobs' | 'contacts') =>
  createRoute({
    method: 'post',
    path: `/${kind}/{id}/restore`,
    summary: `Bring back a deleted ${kind === 'jobs' ? 'job, with everything on it' : 'contact'}, within its 30 days`,
    ...byId,
    responses: {
      200: jsonResponse(kind === 'jobs' ? JobSchema : ContactSchema, 'The record, live again'),
      ...adminWriteErrors('invalid_request', 'not_found'),
    },
  });

export function restoreAdmin(rt: Runtime) {
  return new OpenAPIHono<AppEnv>()
    .openapi(route('jobs'), (c) => {
      const found = restore(rt, 'jobs', recordId(c));
      if (!found) {
        throw new ApiError('not_found', 'no such job (never made, or purged after 30 days)');
      }
      const ctx = appContext(rt, found.workspaceId, new URL(c.req.url).origin);
      return c.json(presentJob(ctx, found.record), 200);
    })
    .openapi(route('contacts'), (c) => {
      const found = restore(rt, 'contacts', recordId(c));
      if (!found) {
        throw new ApiError('not_found', 'no such contact (never made, or purged after 30 days)');
      }
      const ctx = appContext(rt, found.workspaceId, new URL(c.req.url).origin);
      return c.json(presentContact(ctx, found.record), 200);
    });
}
