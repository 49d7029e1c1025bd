import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import type { RouteDeps, SubListOf } from '../../platform/family';
import { jsonResponse } from '../../platform/openapi/responses';
import { type ListQuery, pagingQuery } from '../../platform/paging';
import {
  byId,
  changeErrors,
  deletedResponse,
  jsonBody,
  onlyGet,
  pageAnswer,
  readErrors,
  readOneErrors,
  readUnderErrors,
  recordAnswer,
  recordId,
  refuseField,
  wholeAnswer,
  writeOnly,
} from '../common/routing';
import { contactRecords } from './present';
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
  searchContacts,
  updateContact,
} from './service';

const tags = ['Contacts'];

// spec, Scope rule 4: the API cannot set sms_consent. svc refuses it rather than ignoring it, so a
// client learns the consent was not recorded (decisions.md).
const withoutConsent = [
  ...writeOnly,
  refuseField(
    'sms_consent',
    'sms_consent cannot be set through the API; the homeowner gives it in the app',
  ),
];

const list = createRoute({
  method: 'get',
  path: '/contacts',
  operationId: 'listContacts',
  summary: 'Contacts, newest first',
  tags,
  request: { query: ContactListQuery },
  responses: { 200: jsonResponse(ContactListSchema, 'A page of contacts'), ...readErrors() },
});
const create = createRoute({
  method: 'post',
  path: '/contacts',
  operationId: 'createContact',
  summary: 'Add a contact',
  tags,
  middleware: withoutConsent,
  request: { body: jsonBody(ContactCreateSchema) },
  responses: { 201: jsonResponse(ContactSchema, 'The contact'), ...changeErrors() },
});
const search = createRoute({
  method: 'get',
  path: '/contacts/search',
  operationId: 'searchContacts',
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
  operationId: 'getContact',
  summary: 'One contact',
  tags,
  ...byId,
  responses: { 200: jsonResponse(ContactSchema, 'The contact'), ...readOneErrors() },
});
const update = createRoute({
  method: 'patch',
  path: '/contacts/{id}',
  operationId: 'updateContact',
  summary: 'Change a contact',
  tags,
  middleware: withoutConsent,
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
  operationId: 'deleteContact',
  tags,
  middleware: writeOnly,
  summary: 'Delete a contact (recoverable for 30 days)',
  ...byId,
  responses: { 200: deletedResponse(), ...changeErrors(true) },
});
// GET /contacts/{id}/jobs: each list is declared by the family whose records name the contact
// (its `onContact.lists`); the registry hands them here.
const sublist = (list: SubListOf) =>
  createRoute({
    method: 'get',
    path: `/contacts/{id}/${list.path}`,
    // GET /contacts/{id}/jobs is listContactJobs, as a client calls it.
    operationId: `listContact${list.path[0]?.toUpperCase()}${list.path.slice(1)}`,
    tags,
    summary: list.summary,
    request: { query: list.query ?? pagingQuery },
    ...byId,
    responses: {
      200: jsonResponse(list.schema, list.answers ?? list.summary),
      ...readUnderErrors(),
    },
  });

export function contactRoutes(deps: RouteDeps) {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(list, (c) => {
    const ctx = c.get('ctx');
    const q = c.req.valid('query');
    return pageAnswer(
      c,
      deps,
      'contacts',
      q,
      (after) => listContacts(ctx, q, after),
      contactRecords,
    );
  });
  app.openapi(create, (c) => {
    const contact = createContact(c.get('ctx'), c.req.valid('json'));
    return recordAnswer(c, contactRecords, contact, 201);
  });
  app.openapi(search, (c) =>
    wholeAnswer(c, contactRecords, searchContacts(c.get('ctx'), c.req.valid('query'))),
  );
  onlyGet(app, '/contacts/search');
  app.openapi(getOne, (c) =>
    recordAnswer(c, contactRecords, getContact(c.get('ctx'), recordId(c)), 200),
  );
  app.openapi(update, (c) => {
    const contact = updateContact(c.get('ctx'), recordId(c), c.req.valid('json'));
    return recordAnswer(c, contactRecords, contact, 200);
  });
  app.openapi(remove, (c) => {
    const { id } = deleteContact(c.get('ctx'), recordId(c));
    return c.json({ id, object: 'contact', deleted: true as const }, 200);
  });
  for (const list of deps.contactLists) {
    app.openapi(sublist(list), (c) => {
      const ctx = c.get('ctx');
      const id = recordId(c);
      const q = c.req.valid('query') as ListQuery & { cursor?: string | undefined };
      return pageAnswer(
        c,
        deps,
        `contact-${list.path}:${id}`,
        q,
        (after) => list.scan(ctx, id, q, after),
        list.records,
      );
    });
  }
  return app;
}
