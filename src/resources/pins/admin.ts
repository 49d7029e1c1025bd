import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { type AppEnv, appUrlFor } from '../../platform/app-env';
import { adminWriteErrors, jsonResponse } from '../../platform/openapi/responses';
import type { Runtime } from '../../platform/runtime';
import { ownerOf } from '../common/app-side';
import { byId, recordId } from '../common/routing';
import { JobSchema, jobRecords } from '../jobs/api';
import { convertPin } from './convert';

const convert = createRoute({
  method: 'post',
  path: '/pins/{id}/convert',
  operationId: 'convertPin',
  summary:
    "The door becomes a job (with the pin's homeowner as a contact); the pin's job_id is set",
  ...byId,
  responses: {
    201: jsonResponse(JobSchema, 'The job, as GET /v1/jobs/{id} shows it'),
    ...adminWriteErrors('not_found', 'conflict'),
  },
});

/** DESIGN.md, control API: a rep turns a door into a job in the app. */
export function pinAdmin(rt: Runtime) {
  return new OpenAPIHono<AppEnv>().openapi(convert, (c) => {
    const id = recordId(c);
    const ctx = ownerOf(rt, 'pins', id, appUrlFor(rt.config, c.req.url));
    return c.json(jobRecords.present(ctx, convertPin(ctx, id)), 201);
  });
}
