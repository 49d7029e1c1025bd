import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context';
import { jsonText } from '../../platform/http/json-text';
import { jsonResponse } from '../../platform/openapi/responses';
import { wholeList } from '../../platform/paging';
import type { Runtime } from '../../runtime';
import type { Position } from '../../store';
import {
  byId,
  changeErrors,
  deletedResponse,
  jsonBody,
  onlyGet,
  paged,
  pagedText,
  readErrors,
  readOneErrors,
  recordId,
  writeOnly,
} from '../common/routing';
import { SubListQuery } from '../jobs/input';
import { jobTexts } from '../jobs/present';
import { type JobList, JobListSchema } from '../jobs/schema';
import { jobsOfContact } from '../jobs/service';
import {
  ContactCreateSchema,
  ContactListQuery,
  ContactListSchema,
  ContactSchema,
  ContactSearchQuery,
  ContactUpdateSchema,
} from './schema';
import {
  createContact,
  deleteContact,
  getContact,
  listContacts,
  presentContact,
  searchContacts,
  updateContact,
} from './service';

const tags = ['Contacts'];

const list = createRoute({
  method: 'get',
  path: '/contacts',
  summary: 'Contacts, newest first',
  tags,
  request: { query: ContactListQuery },
  responses: { 200: jsonResponse(ContactListSchema, 'A page of contacts'), ...readErrors() },
});
const create = createRoute({
  method: 'post',
  path: '/contacts',
  summary: 'Add a contact',
  tags,
  middleware: writeOnly,
  request: { body: jsonBody(ContactCreateSchema) },
  responses: { 201: jsonResponse(ContactSchema, 'The contact'), ...changeErrors() },
});
const search = createRoute({
  method: 'get',
  path: '/contacts/search',
  tags,
  summary: 'Find contacts by email, else phone, else name (not paged)',
  request: { query: ContactSearchQuery },
  responses: {
    200: jsonResponse(ContactListSchema, 'The matches of the first criterion that matched'),
    ...readErrors(),
  },
});
const getOne = createRoute({
  method: 'get',
  path: '/contacts/{id}',
  summary: 'One contact',
  tags,
  ...byId,
  responses: { 200: jsonResponse(ContactSchema, 'The contact'), ...readOneErrors() },
});
const update = createRoute({
  method: 'patch',
  path: '/contacts/{id}',
  summary: 'Change a contact',
  tags,
  middleware: writeOnly,
  request: { body: jsonBody(ContactUpdateSchema) },
  ...byId,
  responses: {
    200: jsonResponse(ContactSchema, 'The contact as it now is'),
    ...changeErrors(true),
  },
});
const remove = createRoute({
  method: 'delete',
  path: '/contacts/{id}',
  tags,
  middleware: writeOnly,
  summary: 'Delete a contact (recoverable for 30 days)',
  ...byId,
  responses: { 200: deletedResponse(), ...changeErrors(true) },
});
const jobs = createRoute({
  method: 'get',
  path: '/contacts/{id}/jobs',
  tags,
  summary:
    'Every job the person is on (homeowner, adjuster or secondary contact), archived included',
  request: { query: SubListQuery },
  ...byId,
  responses: { 200: jsonResponse(JobListSchema, 'A page of jobs'), ...readOneErrors() },
});

export function contactRoutes(rt: Runtime) {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(list, (c) => {
    const ctx = c.get('ctx');
    const q = c.req.valid('query');
    return c.json(
      paged(
        rt,
        ctx,
        'contacts',
        q,
        (after) => listContacts(ctx, q, after),
        (x) => presentContact(ctx, x),
      ),
      200,
    );
  });
  app.openapi(create, (c) => {
    const ctx = c.get('ctx');
    return c.json(presentContact(ctx, createContact(ctx, c.req.valid('json'))), 201);
  });
  app.openapi(search, (c) => {
    const ctx = c.get('ctx');
    return c.json(
      wholeList(searchContacts(ctx, c.req.valid('query')).map((x) => presentContact(ctx, x))),
      200,
    );
  });
  onlyGet(app, '/contacts/search');
  app.openapi(getOne, (c) => {
    const ctx = c.get('ctx');
    return c.json(presentContact(ctx, getContact(ctx, recordId(c))), 200);
  });
  app.openapi(update, (c) => {
    const ctx = c.get('ctx');
    return c.json(presentContact(ctx, updateContact(ctx, recordId(c), c.req.valid('json'))), 200);
  });
  app.openapi(remove, (c) => {
    const { id } = deleteContact(c.get('ctx'), recordId(c));
    return c.json({ id, object: 'contact', deleted: true as const }, 200);
  });
  app.openapi(jobs, (c) => {
    const ctx = c.get('ctx');
    const id = recordId(c);
    const q = c.req.valid('query');
    const list = `contact-jobs:${id}`;
    const scan = (after: Position | undefined) => jobsOfContact(ctx, id, q, after);
    return jsonText<JobList, 200>(c, pagedText(rt, ctx, list, q, scan, jobTexts(ctx)), 200);
  });
  return app;
}
