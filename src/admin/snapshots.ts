import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../platform/app-env';
import { adminWriteErrors, errorResponses, jsonResponse } from '../platform/openapi/responses';
import { timestamp } from '../platform/openapi/schemas';
import type { Runtime } from '../platform/runtime';
import { byId, jsonBody, recordId } from '../resources/common/routing';
import { WorkspaceSnapshotSchema } from '../snapshot/format';
import { exportStore, importStore, StoreSnapshotSchema } from '../snapshot/store';
import { exportWorkspace, restoreWorkspace } from '../snapshot/workspace';
import { AdminWorkspaceSchema } from './schemas';
import { presentWorkspace } from './workspaces-service';

const exportAll = createRoute({
  method: 'get',
  path: '/snapshot',
  operationId: 'exportStore',
  summary: 'The whole store as JSON: the data file format, with uploaded bytes beside it',
  responses: { 200: jsonResponse(StoreSnapshotSchema, 'Every workspace, key hash and record') },
});

const importAll = createRoute({
  method: 'post',
  path: '/snapshot',
  operationId: 'importStore',
  summary: 'Replace the whole store with a snapshot; raises no events',
  request: { body: jsonBody(StoreSnapshotSchema) },
  responses: {
    200: jsonResponse(
      z
        .object({
          object: z.literal('store_import'),
          workspaces: z.number().int(),
          records: z.number().int(),
          now: timestamp(),
        })
        .openapi('AdminStoreImport'),
      'What the store holds now, and the clock',
    ),
    ...adminWriteErrors('invalid_request'),
  },
});

const exportOne = createRoute({
  method: 'get',
  path: '/workspaces/{id}/snapshot',
  operationId: 'exportWorkspaceSnapshot',
  summary: 'One workspace: records, keys as hashes, subscriptions, deliveries, uploaded bytes',
  ...byId,
  responses: {
    200: jsonResponse(WorkspaceSnapshotSchema, 'The snapshot'),
    ...errorResponses('invalid_request', 'not_found'),
  },
});

const restoreOne = createRoute({
  method: 'put',
  path: '/workspaces/{id}/snapshot',
  operationId: 'restoreWorkspaceSnapshot',
  summary: 'Put a workspace back as a snapshot of it holds it: same id, same keys; no events',
  ...byId,
  request: { body: jsonBody(WorkspaceSnapshotSchema) },
  responses: {
    200: jsonResponse(AdminWorkspaceSchema, 'The workspace, restored'),
    ...adminWriteErrors('invalid_request', 'not_found'),
  },
});

export function snapshotAdmin(rt: Runtime) {
  return new OpenAPIHono<AppEnv>()
    .openapi(exportAll, async (c) => c.json(await exportStore(rt), 200))
    .openapi(importAll, async (c) => {
      const counts = await importStore(rt, c.req.valid('json'));
      return c.json({ object: 'store_import' as const, ...counts, now: rt.clock.iso() }, 200);
    })
    .openapi(exportOne, async (c) => c.json(await exportWorkspace(rt, recordId(c)), 200))
    .openapi(restoreOne, async (c) => {
      const ws = await restoreWorkspace(rt, recordId(c), c.req.valid('json'));
      return c.json(presentWorkspace(rt, ws), 200);
    });
}
