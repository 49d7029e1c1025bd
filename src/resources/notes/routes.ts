import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import type { RouteDeps } from '../../platform/family';
import { jsonResponse } from '../../platform/openapi/responses';
import {
  byId,
  changeErrors,
  jsonBody,
  pageAnswer,
  readErrors,
  readOneErrors,
  recordAnswer,
  recordId,
  writeOnly,
} from '../common/routing';
import { noteRecords } from './present';
import { NoteCreateSchema, NoteListQuery, NoteListSchema, NoteSchema } from './schema';
import { createNote, getNote, listNotes } from './service';

const list = createRoute({
  method: 'get',
  path: '/notes',
  operationId: 'listNotes',
  summary: 'Notes, newest first',
  tags: ['Notes'],
  request: { query: NoteListQuery },
  responses: { 200: jsonResponse(NoteListSchema, 'A page of notes'), ...readErrors() },
});

const create = createRoute({
  method: 'post',
  path: '/notes',
  operationId: 'createNote',
  summary: 'Add a note to a job',
  tags: ['Notes'],
  middleware: writeOnly,
  request: { body: jsonBody(NoteCreateSchema) },
  responses: { 201: jsonResponse(NoteSchema, 'The note'), ...changeErrors() },
});

const getOne = createRoute({
  method: 'get',
  path: '/notes/{id}',
  operationId: 'getNote',
  summary: 'One note',
  tags: ['Notes'],
  ...byId,
  responses: { 200: jsonResponse(NoteSchema, 'The note'), ...readOneErrors() },
});

export function noteRoutes(deps: RouteDeps) {
  return new OpenAPIHono<AppEnv>()
    .openapi(list, (c) => {
      const ctx = c.get('ctx');
      const q = c.req.valid('query');
      return pageAnswer(c, deps, 'notes', q, (after) => listNotes(ctx, q, after), noteRecords);
    })
    .openapi(create, (c) =>
      recordAnswer(c, noteRecords, createNote(c.get('ctx'), c.req.valid('json')), 201),
    )
    .openapi(getOne, (c) => recordAnswer(c, noteRecords, getNote(c.get('ctx'), recordId(c)), 200));
}
