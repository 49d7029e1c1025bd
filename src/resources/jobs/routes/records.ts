import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv, Runtime } from '../../../context';
import { jsonResponse } from '../../../platform/openapi/responses';
import { wholeList } from '../../../platform/paging';
import {
  changeErrors,
  deletedResponse,
  idParam,
  jsonBody,
  onlyGet,
  paged,
  readErrors,
  readOneErrors,
  writeOnly,
} from '../../common/routing';
import { JobCreateSchema, JobListQuery, JobSearchQuery, JobUpdateSchema } from '../input';
import { presentJob, presentJobs } from '../present';
import { JobListSchema, JobSchema } from '../schema';
import { createJob, deleteJob, listJobs, searchJobs, updateJob } from '../service';
import { getJob } from '../visibility';

const tags = ['Jobs'];

const list = createRoute({
  method: 'get',
  path: '/jobs',
  summary: 'Jobs, newest first',
  tags,
  request: { query: JobListQuery },
  responses: { 200: jsonResponse(JobListSchema, 'A page of jobs'), ...readErrors() },
});
const create = createRoute({
  method: 'post',
  path: '/jobs',
  summary: 'Create a job',
  tags,
  middleware: writeOnly,
  request: { body: jsonBody(JobCreateSchema) },
  responses: { 201: jsonResponse(JobSchema, 'The job'), ...changeErrors() },
});
const search = createRoute({
  method: 'get',
  path: '/jobs/search',
  tags,
  summary: 'Find jobs; no criteria gives an empty list (not paged)',
  request: { query: JobSearchQuery },
  responses: { 200: jsonResponse(JobListSchema, 'Matching jobs, newest first'), ...readErrors() },
});
const getOne = createRoute({
  method: 'get',
  path: '/jobs/{id}',
  summary: 'One job',
  tags,
  request: { params: idParam },
  responses: { 200: jsonResponse(JobSchema, 'The job'), ...readOneErrors() },
});
const update = createRoute({
  method: 'patch',
  path: '/jobs/{id}',
  tags,
  middleware: writeOnly,
  summary: 'Change a job; a stage moves it as dragging the card does',
  request: { params: idParam, body: jsonBody(JobUpdateSchema) },
  responses: { 200: jsonResponse(JobSchema, 'The job as it now is'), ...changeErrors(true) },
});
const remove = createRoute({
  method: 'delete',
  path: '/jobs/{id}',
  tags,
  middleware: writeOnly,
  summary: 'Delete a job (recoverable for 30 days, with everything on it)',
  request: { params: idParam },
  responses: { 200: deletedResponse(), ...changeErrors(true) },
});

export function jobRecordRoutes(rt: Runtime) {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(list, (c) => {
    const ctx = c.get('ctx');
    const q = c.req.valid('query');
    return c.json(
      paged(rt, ctx, 'jobs', q, (after) => listJobs(ctx, q, after), presentJobs(ctx)),
      200,
    );
  });
  app.openapi(create, (c) => {
    const ctx = c.get('ctx');
    return c.json(presentJob(ctx, createJob(ctx, c.req.valid('json'))), 201);
  });
  app.openapi(search, (c) => {
    const ctx = c.get('ctx');
    return c.json(wholeList(searchJobs(ctx, c.req.valid('query')).map(presentJobs(ctx))), 200);
  });
  onlyGet(app, '/jobs/search');
  app.openapi(getOne, (c) => {
    const ctx = c.get('ctx');
    return c.json(presentJob(ctx, getJob(ctx, c.req.valid('param').id)), 200);
  });
  app.openapi(update, (c) => {
    const ctx = c.get('ctx');
    return c.json(
      presentJob(ctx, updateJob(ctx, c.req.valid('param').id, c.req.valid('json'))),
      200,
    );
  });
  app.openapi(remove, (c) => {
    const { id } = deleteJob(c.get('ctx'), c.req.valid('param').id);
    return c.json({ id, object: 'job', deleted: true as const }, 200);
  });
  return app;
}
