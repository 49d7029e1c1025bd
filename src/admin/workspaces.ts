import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../platform/app-env';
import { ApiError, under } from '../platform/errors';
import { adminWriteErrors, errorResponses, jsonResponse } from '../platform/openapi/responses';
import { listOf } from '../platform/openapi/schemas';
import type { Runtime } from '../platform/runtime';
import { byId, jsonBody, recordId } from '../resources/common/routing';
import { createFromSnapshot } from '../snapshot/create';
import { WorkspaceSnapshotSchema } from '../snapshot/format';
import { adminPage, adminPaging, positionOf } from './paging';
import {
  AdminKeySchema,
  AdminWorkspaceSchema,
  CreatedWorkspaceSchema,
  DeletedWorkspaceSchema,
} from './schemas';
import {
  createKey,
  createWorkspace,
  deleteWorkspace,
  getWorkspace,
  listWorkspaces,
  presentKey,
  presentWorkspace,
  revokeKey,
  setSubscription,
} from './workspaces-service';

const create = createRoute({
  method: 'post',
  path: '/workspaces',
  operationId: 'createWorkspace',
  summary: 'Create a workspace with a write key and a read-only key',
  request: {
    body: jsonBody(
      z.object({
        name: z.string().min(1).max(200).optional(),
        profile: z.enum(['empty', 'small', 'demo']).optional().openapi({ default: 'empty' }),
        seed: z
          .number()
          .int()
          .min(0)
          .max(2 ** 31 - 1)
          .optional(),
        subscription_active: z.boolean().optional(),
        /**
         * The workspace deletes itself, and everything of it, when its clock passes this many
         * seconds from now: a CI job that crashed leaves nothing behind.
         */
        expires_in_seconds: z
          .number()
          .int()
          .min(1)
          .max(10 * 365 * 24 * 3600)
          .optional(),
        /** A new workspace holding what the snapshot holds, under new ids (instead of a profile). */
        snapshot: WorkspaceSnapshotSchema.optional(),
      }),
    ),
  },
  responses: {
    201: jsonResponse(CreatedWorkspaceSchema, 'The workspace and its keys (shown once)'),
    ...adminWriteErrors('invalid_request'),
  },
});

const list = createRoute({
  method: 'get',
  path: '/workspaces',
  operationId: 'listWorkspaces',
  summary: 'The workspaces, oldest first, with their keys (never the keys themselves); paged',
  request: { query: z.object(adminPaging) },
  responses: {
    200: jsonResponse(listOf(AdminWorkspaceSchema, 'AdminWorkspaceList'), 'Workspaces'),
    ...errorResponses('invalid_request'),
  },
});

const getOne = createRoute({
  method: 'get',
  path: '/workspaces/{id}',
  operationId: 'getWorkspace',
  summary: 'One workspace',
  ...byId,
  responses: {
    200: jsonResponse(AdminWorkspaceSchema, 'The workspace'),
    ...errorResponses('invalid_request', 'not_found'),
  },
});

const patch = createRoute({
  method: 'patch',
  path: '/workspaces/{id}',
  operationId: 'updateWorkspace',
  summary: 'Turn the subscription on or off (off: the API answers 402 plan_required)',
  request: { body: jsonBody(z.object({ subscription_active: z.boolean() })) },
  ...byId,
  responses: {
    200: jsonResponse(AdminWorkspaceSchema, 'The workspace'),
    ...adminWriteErrors('invalid_request', 'not_found'),
  },
});

const remove = createRoute({
  method: 'delete',
  path: '/workspaces/{id}',
  operationId: 'deleteWorkspace',
  summary:
    'Delete a workspace and everything of it for good: records, file bytes, keys (401 at once), OAuth connections, subscriptions and their pending deliveries, request-log entries, faults matching it, idempotency records; then 404',
  ...byId,
  responses: {
    200: jsonResponse(DeletedWorkspaceSchema, 'The workspace is gone'),
    ...adminWriteErrors('invalid_request', 'not_found'),
  },
});

const newKey = createRoute({
  method: 'post',
  path: '/workspaces/{id}/keys',
  operationId: 'createWorkspaceKey',
  summary: 'Create an API key (shown once)',
  ...byId,
  request: {
    body: jsonBody(
      z.object({ name: z.string().min(1).max(200).optional(), access: z.enum(['write', 'read']) }),
    ),
  },
  responses: {
    201: jsonResponse(
      z
        .object({ id: z.uuid(), key: z.string(), access: z.enum(['write', 'read']) })
        .openapi('AdminNewKey'),
      'The key',
    ),
    ...adminWriteErrors('invalid_request', 'not_found'),
  },
});

const revoke = createRoute({
  method: 'delete',
  path: '/keys/{id}',
  operationId: 'revokeKey',
  summary: 'Revoke a key at once; the webhooks it created are switched off',
  ...byId,
  responses: {
    200: jsonResponse(AdminKeySchema, 'The revoked key'),
    ...adminWriteErrors('invalid_request', 'not_found'),
  },
});

export function workspaceAdmin(rt: Runtime) {
  return new OpenAPIHono<AppEnv>()
    .openapi(create, async (c) => {
      const { snapshot, expires_in_seconds, ...input } = c.req.valid('json');
      if (snapshot === undefined) {
        return c.json(
          await createWorkspace(rt, {
            ...input,
            profile: input.profile ?? 'empty',
            expires_in_seconds,
          }),
          201,
        );
      }
      // A snapshot says what the workspace holds; a profile, a seed or a plan would say otherwise.
      for (const field of ['profile', 'seed', 'subscription_active'] as const) {
        if (input[field] !== undefined) {
          throw new ApiError('invalid_request', `send a snapshot or a ${field}, not both`, field);
        }
      }
      return c.json(
        await under('snapshot', () =>
          createFromSnapshot(rt, snapshot, input.name, expires_in_seconds),
        ),
        201,
      );
    })
    .openapi(list, (c) => {
      const q = c.req.valid('query');
      const body = adminPage(
        rt,
        'workspaces',
        q,
        (after) => listWorkspaces(rt, after, q.limit, c.get('adminScope')),
        positionOf,
        (ws) => presentWorkspace(rt, ws),
      );
      return c.json(body, 200);
    })
    .openapi(getOne, (c) => c.json(presentWorkspace(rt, getWorkspace(rt, recordId(c))), 200))
    .openapi(patch, (c) => {
      const ws = setSubscription(rt, recordId(c), c.req.valid('json').subscription_active);
      return c.json(presentWorkspace(rt, ws), 200);
    })
    .openapi(remove, async (c) => c.json(await deleteWorkspace(rt, recordId(c)), 200))
    .openapi(newKey, (c) => c.json(createKey(rt, recordId(c), c.req.valid('json')), 201))
    .openapi(revoke, (c) => c.json(presentKey(revokeKey(rt, recordId(c))), 200));
}
