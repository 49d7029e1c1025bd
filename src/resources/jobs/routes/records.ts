import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../platform/context';
import { jsonText } from '../../../platform/http/json-text';
import { jsonResponse } from '../../../platform/openapi/responses';
import { wholeListText } from '../../../platform/paging';
import type { Runtime } from '../../../runtime';
import {
  byId,
  changeErrors,
  deletedResponse,
  jsonBody,
  onlyGet,
  pagedText,
  readErrors,
  readOneErrors,
  recordId,
  writeOnly,
} from '../../common/routing';
import { JobCreateSchema, JobListQuery, JobSearchQuery, JobUpdateSchema } from '../input';
import { jobText, jobTexts } from '../present';
import { type JobList, JobListSchema, type JobOut, JobSchema } from '../schema';
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
  ...byId,
  responses: { 200: jsonResponse(JobSchema, 'The job'), ...readOneErrors() },
});
const update = createRoute({
  method: 'patch',
  path: '/jobs/{id}',
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
  tags,
  middleware: writeOnly,
  summary: 'Delete a job (recoverable for 30 days, with everything on it)',
  ...byId,
  responses: { 200: deletedResponse(), ...changeErrors(true) },
});

export function jobRecordRoutes(rt: Runtime) {
  const app = new OpenAPIHono<AppEnv>();
  // Jobs are answered from their kept JSON text (jobText): presenting and serialising a page of
  // them again for every read was most of what a read cost.
  app.openapi(list, (c) => {
    const ctx = c.get('ctx');
    const q = c.req.valid('query');
    const text = pagedText(rt, ctx, 'jobs', q, (after) => listJobs(ctx, q, after), jobTexts(ctx));
    return jsonText<JobList, 200>(c, text, 200);
  });
  app.openapi(create, (c) => {
    const ctx = c.get('ctx');
    return jsonText<JobOut, 201>(c, jobText(ctx, createJob(ctx, c.req.valid('json'))), 201);
  });
  app.openapi(search, (c) => {
    const ctx = c.get('ctx');
    const found = searchJobs(ctx, c.req.valid('query'));
    return jsonText<JobList, 200>(c, wholeListText(found.map(jobTexts(ctx))), 200);
  });
  onlyGet(app, '/jobs/search');
  app.openapi(getOne, (c) => {
    const ctx = c.get('ctx');
    return jsonText<JobOut, 200>(c, jobText(ctx, getJob(ctx, recordId(c))), 200);
  });
  app.openapi(update, (c) => {
    const ctx = c.get('ctx');
    const job = updateJob(ctx, recordId(c), c.req.valid('json'));
    return jsonText<JobOut, 200>(c, jobText(ctx, job), 200);
  });
  app.openapi(remove, (c) => {
    const { id } = deleteJob(c.get('ctx'), recordId(c));
    return c.json({ id, object: 'job', deleted: true as const }, 200);
  });
  return app;
}
