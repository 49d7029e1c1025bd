import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context';
import { jsonResponse } from '../../platform/openapi/responses';
import type { Runtime } from '../../runtime';
import {
  byId,
  changeErrors,
  jsonBody,
  paged,
  readErrors,
  readOneErrors,
  recordId,
  writeOnly,
} from '../common/routing';
import { NoteCreateSchema, NoteListQuery, NoteListSchema, NoteSchema } from './schema';
import { createNote, getNote, listNotes, presentNote } from './service';

const list = createRoute({
  method: 'get',
  path: '/notes',
  summary: 'Notes, newest first',
  tags: ['Notes'],
  request: { query: NoteListQuery },
  responses: { 200: jsonResponse(NoteListSchema, 'A page of notes'), ...readErrors() },
});

const create = createRoute({
  method: 'post',
  path: '/notes',
  summary: 'Add a note to a job',
  tags: ['Notes'],
  middleware: writeOnly,
  request: { body: jsonBody(NoteCreateSchema) },
  responses: { 201: jsonResponse(NoteSchema, 'The note'), ...changeErrors() },
});

const getOne = createRoute({
  method: 'get',
  path: '/notes/{id}',
  summary: 'One note',
  tags: ['Notes'],
  ...byId,
  responses: { 200: jsonResponse(NoteSchema, 'The note'), ...readOneErrors() },
});

export function noteRoutes(rt: Runtime) {
  return new OpenAPIHono<AppEnv>()
    .openapi(list, (c) => {
      const ctx = c.get('ctx');
      const q = c.req.valid('query');
      return c.json(
        paged(
          rt,
          ctx,
          'notes',
          q,
          (after) => listNotes(ctx, q, after),
          (n) => presentNote(ctx, n),
        ),
        200,
      );
    })
    .openapi(create, (c) => {
      const ctx = c.get('ctx');
      return c.json(presentNote(ctx, createNote(ctx, c.req.valid('json'))), 201);
    })
    .openapi(getOne, (c) => {
      const ctx = c.get('ctx');
      return c.json(presentNote(ctx, getNote(ctx, recordId(c))), 200);
    });
}
