import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import type { RouteDeps } from '../../platform/family';
import { jsonResponse } from '../../platform/openapi/responses';
import {
  byId,
  getOperation,
  listOperation,
  pageAnswer,
  readUnderErrors,
  recordAnswer,
  recordId,
} from '../common/routing';
import { propertyRecords, stormListRecords } from './present';
import {
  PropertyQuery,
  StormListListSchema,
  StormListPropertyListSchema,
  StormListQuery,
  StormListSchema,
} from './schema';
import { getStormList, listProperties, listStormLists } from './service';

// spec, Storm lists (read only): GET only; any other verb on these paths is 405 (the platform's
// not-found handler answers a known path so), and nothing here makes a list.
const tags = ['Storm lists'];

const list = listOperation({
  path: '/storm_lists',
  operationId: 'listStormLists',
  summary: 'Storm lists built in the app, newest first',
  tags,
  query: StormListQuery,
  schema: StormListListSchema,
  description: 'A page of storm lists',
});

const getOne = getOperation({
  path: '/storm_lists/{id}',
  operationId: 'getStormList',
  summary: 'One storm list',
  tags,
  schema: StormListSchema,
  description: 'The storm list',
});

const properties = createRoute({
  method: 'get',
  path: '/storm_lists/{id}/properties',
  operationId: 'listStormListProperties',
  summary: "A storm list's properties",
  tags,
  ...byId,
  request: { query: PropertyQuery },
  responses: {
    200: jsonResponse(StormListPropertyListSchema, 'A page of the properties'),
    ...readUnderErrors(),
  },
});

export function stormListRoutes(deps: RouteDeps) {
  return new OpenAPIHono<AppEnv>()
    .openapi(list, (c) => {
      const ctx = c.get('ctx');
      const q = c.req.valid('query');
      const scan = (after: Parameters<typeof listStormLists>[2]) => listStormLists(ctx, q, after);
      return pageAnswer(c, deps, 'storm_lists', q, scan, stormListRecords);
    })
    .openapi(getOne, (c) =>
      recordAnswer(c, stormListRecords, getStormList(c.get('ctx'), recordId(c)), 200),
    )
    .openapi(properties, (c) => {
      const ctx = c.get('ctx');
      const id = recordId(c);
      const q = c.req.valid('query');
      const scan = (after: Parameters<typeof listProperties>[3]) =>
        listProperties(ctx, id, q, after);
      return pageAnswer(c, deps, `storm-list-properties:${id}`, q, scan, propertyRecords);
    });
}
