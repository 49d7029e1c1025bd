import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../platform/app-env';
import type { RouteDeps, SubListOf } from '../../../platform/family';
import { jsonResponse } from '../../../platform/openapi/responses';
import { type ListQuery, pagingQuery } from '../../../platform/paging';
import { getJob } from '../../common/job';
import { byId, pageAnswer, readUnderErrors, recordId } from '../../common/routing';

// spec, Jobs: GET /jobs/{id}/notes, /files, /photos, /tasks, /estimates, /invoices, /payments.
// Each list is declared by the family whose records it holds (its `onJob.lists`); the registry
// hands them here in the order the jobs family gives.

const route = (list: SubListOf) =>
  createRoute({
    method: 'get',
    path: `/jobs/{id}/${list.path}`,
    // GET /jobs/{id}/notes is listJobNotes, as a client calls it.
    operationId: `listJob${list.path[0]?.toUpperCase()}${list.path.slice(1)}`,
    summary: list.summary,
    tags: ['Jobs'],
    // spec, Pagination 3: a job's own lists take the time filters too.
    request: { query: list.query ?? pagingQuery },
    ...byId,
    responses: { 200: jsonResponse(list.schema, list.summary), ...readUnderErrors() },
  });

export function jobListRoutes(deps: RouteDeps) {
  const app = new OpenAPIHono<AppEnv>();
  for (const list of deps.jobLists) {
    // The request's own form first (a bad cursor is 400 for any job), then the job (404 when
    // there is none, or it is deleted), then a page of its records.
    app.openapi(route(list), (c) => {
      const ctx = c.get('ctx');
      const id = recordId(c);
      const q = c.req.valid('query') as ListQuery & { cursor?: string | undefined };
      return pageAnswer(
        c,
        deps,
        `job-${list.path}:${id}`,
        q,
        (after) => {
          getJob(ctx, id);
          return list.scan(ctx, id, q, after);
        },
        list.records,
      );
    });
  }
  return app;
}
