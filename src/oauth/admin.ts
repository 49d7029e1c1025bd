import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../platform/app-env';
import { adminWriteErrors, errorResponses, jsonResponse } from '../platform/openapi/responses';
import { listOf } from '../platform/openapi/schemas';
import type { Runtime } from '../platform/runtime';
import { jsonBody } from '../resources/common/routing';
import { CreateAppSchema, CreatedAppSchema, OAuthAppSchema } from './schemas';
import { listApps, registerApp } from './service';

const create = createRoute({
  method: 'post',
  path: '/oauth/apps',
  operationId: 'createOAuthApp',
  summary: 'Register an OAuth app; its client_secret is shown once',
  request: { body: jsonBody(CreateAppSchema) },
  responses: {
    201: jsonResponse(CreatedAppSchema, 'The app'),
    ...adminWriteErrors('invalid_request'),
  },
});

const list = createRoute({
  method: 'get',
  path: '/oauth/apps',
  operationId: 'listOAuthApps',
  summary: 'The registered OAuth apps, oldest first, without their secrets',
  responses: {
    200: jsonResponse(listOf(OAuthAppSchema, 'AdminOAuthAppList'), 'Apps'),
    ...errorResponses('server_error'),
  },
});

/** spec, Authentication 5: "Apps are registered by the service operator". */
export function oauthAdmin(rt: Runtime) {
  return new OpenAPIHono<AppEnv>()
    .openapi(create, (c) => c.json(registerApp(rt, c.req.valid('json')), 201))
    .openapi(list, (c) =>
      c.json(
        { object: 'list' as const, data: listApps(rt), has_more: false, next_cursor: null },
        200,
      ),
    );
}
