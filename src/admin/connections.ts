import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import { ConnectionSchema } from '../oauth/schemas';
import { deleteConnection, listConnections } from '../oauth/service';
import type { AppEnv } from '../platform/app-env';
import { errorResponses, jsonResponse } from '../platform/openapi/responses';
import { listOf } from '../platform/openapi/schemas';
import type { Runtime } from '../platform/runtime';
import { byId, recordId } from '../resources/common/routing';

const CID = {
  name: 'cid',
  in: 'path',
  required: true,
  description: "The connection's id",
  schema: { type: 'string' },
} as const;

const list = createRoute({
  method: 'get',
  path: '/workspaces/{id}/connections',
  operationId: 'listConnections',
  summary: "The workspace's OAuth connections, oldest first, disconnected ones included",
  ...byId,
  responses: {
    200: jsonResponse(listOf(ConnectionSchema, 'AdminConnectionList'), 'Connections'),
    ...errorResponses('not_found'),
  },
});

const remove = createRoute({
  method: 'delete',
  path: '/workspaces/{id}/connections/{cid}',
  operationId: 'deleteConnection',
  summary:
    'Disconnect an app at once: its tokens stop and the webhooks it created are switched off',
  parameters: [...byId.parameters, CID],
  responses: {
    200: jsonResponse(ConnectionSchema, 'The disconnected connection'),
    ...errorResponses('not_found'),
  },
});

/** DESIGN.md, control API: the workspace settings' list of connected apps. */
export function connectionAdmin(rt: Runtime) {
  return new OpenAPIHono<AppEnv>()
    .openapi(list, (c) =>
      c.json(
        {
          object: 'list' as const,
          data: listConnections(rt, recordId(c)),
          has_more: false,
          next_cursor: null,
        },
        200,
      ),
    )
    .openapi(remove, (c) =>
      c.json(deleteConnection(rt, recordId(c), c.req.param('cid').toLowerCase()), 200),
    );
}
