import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { BundleSchema } from '../bundle/format';
import { makeBundle } from '../bundle/make';
import type { AppEnv } from '../platform/app-env';
import { errorResponses, jsonResponse } from '../platform/openapi/responses';
import type { Runtime } from '../platform/runtime';
import { byId, recordId } from '../resources/common/routing';

const bundle = createRoute({
  method: 'get',
  path: '/workspaces/{id}/bundle',
  operationId: 'getWorkspaceBundle',
  summary:
    'A support bundle: the workspace snapshot, its request and delivery logs, the clock and the ' +
    'active faults, secrets replaced; `svc serve --data FILE` serves it back',
  ...byId,
  responses: {
    200: jsonResponse(BundleSchema, 'The bundle'),
    ...errorResponses('invalid_request', 'not_found'),
  },
});

export function bundleAdmin(rt: Runtime) {
  return new OpenAPIHono<AppEnv>().openapi(bundle, async (c) =>
    c.json(await makeBundle(rt, recordId(c), c.get('adminScope') !== undefined), 200),
  );
}
