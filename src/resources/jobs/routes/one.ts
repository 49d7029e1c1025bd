import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../platform/app-env';
import type { RouteDeps } from '../../../platform/family';
import { jsonResponse } from '../../../platform/openapi/responses';
import { getJob } from '../../common/job';
import {
  byId,
  changeErrors,
  deletedResponse,
  jsonBody,
  onlyGet,
  pageAnswer,
  readErrors,
  readOneErrors,
  recordAnswer,
  recordId,
  wholeAnswer,
  writeOnly,
} from '../../common/routing';
import { JobCreateSchema, JobListQuery, JobSearchQuery, JobUpdateSchema } from '../input';
import { jobRecords } from '../present';
import { JobListSchema, JobSchema } from '../schema';
import { createJob, deleteJob, listJobs, searchJobs, updateJob } from '../service';

const tags = ['Jobs'];

const list = createRoute({
  method: 'get',
  path: '/jobs',
  operationId: 'listJobs',
  summary: 'Jobs, newest first',
  tags,
  request: { query: JobListQuery },
  responses: { 200: jsonResponse(JobListSchema, 'A page of jobs'), ...readErrors() },
});
const create = createRoute({
  method: 'post',
  path: '/jobs',
  operationId: 'createJob',
  summary: 'Create a job',
  tags,
  middleware: writeOnly,
  request: { body: jsonBody(JobCreateSchema) },
  responses: { 201: jsonResponse(JobSchema, 'The job'), ...changeErrors() },
});
const search = createRoute({
  method: 'get',
  path: '/jobs/search',
  operationId: 'searchJobs',
  tags,
  summary: 'Find jobs; no criteria gives an empty list (not paged)',
  request: { query: JobSearchQuery },
  responses: { 200: jsonResponse(JobListSchema, 'Matching jobs, newest first'), ...readErrors() },
});
const getOne = createRoute({
  method: 'get',
  path: '/jobs/{id}',
  operationId: 'getJob',
  summary: 'One job',
  tags,
  ...byId,
  responses: { 200: jsonResponse(JobSchema, 'The job'), ...readOneErrors() },
});
const update = createRoute({
  method: 'patch',
  path: '/jobs/{id}',
  operationId: 'updateJob',
  tags,
  middleware: writeOnly,
  summary: 'Change a job; a stage moves it as dragging the card does',
  request: { body: jsonBody(JobUpdateSchema) },
  ...byId,
  responses: { 200: jsonResponse(JobSchema, 'The job as it now is'), ...changeErrors(true) },
});
const remove = createRoute({
  method: 'delete',
  path: '/jobs/{id}',
  operationId: 'deleteJob',
  tags,
  middleware: writeOnly,
  summary: 'Delete a job (recoverable for 30 days, with everything on it)',
  ...byId,
  responses: { 200: deletedResponse(), ...changeErrors(true) },
});

export function jobRecordRoutes(deps: RouteDeps) {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(list, (c) => {
    const ctx = c.get('ctx');
    const q = c.req.valid('query');
    return pageAnswer(c, deps, 'jobs', q, (after) => listJobs(ctx, q, after), jobRecords);
  });
  app.openapi(create, (c) => {
    const job = createJob(c.get('ctx'), c.req.valid('json'));
    return recordAnswer(c, jobRecords, job, 201);
  });
  app.openapi(search, (c) =>
    wholeAnswer(c, jobRecords, searchJobs(c.get('ctx'), c.req.valid('query'))),
  );
  onlyGet(app, '/jobs/search');
  app.openapi(getOne, (c) => recordAnswer(c, jobRecords, getJob(c.get('ctx'), recordId(c)), 200));
  app.openapi(update, (c) => {
    const job = updateJob(c.get('ctx'), recordId(c), c.req.valid('json'));
    return recordAnswer(c, jobRecords, job, 200);
  });
  app.openapi(remove, (c) => {
    const { id } = deleteJob(c.get('ctx'), recordId(c));
    return c.json({ id, object: 'job', deleted: true as const }, 200);
  });
  return app;
}
