import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import { baseErrors, errorResponses, jsonResponse } from '../../platform/openapi/responses';
import { listOf } from '../../platform/openapi/schemas';
import { wholeList } from '../../platform/paging';
import { UserSchema } from './schema';
import { listUsers, presentUser } from './service';

const list = createRoute({
  method: 'get',
  path: '/users',
  operationId: 'listUsers',
  summary: "The workspace's own team",
  tags: ['Lookups'],
  responses: {
    200: jsonResponse(listOf(UserSchema, 'UserList'), 'Every user of the workspace'),
    ...errorResponses(...baseErrors),
  },
});

export function userRoutes() {
  return new OpenAPIHono<AppEnv>().openapi(list, (c) =>
    c.json(wholeList(listUsers(c.get('ctx')).map(presentUser)), 200),
  );
}
