import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../platform/app-env';
import { type ErrorCode, errorCodes, errorStatus, invalid, notFound } from '../platform/errors';
import { type FaultMatch, MAX_DELAY_MS, type NewFault } from '../platform/faults';
import { adminWriteErrors, errorResponses, jsonResponse } from '../platform/openapi/responses';
import { listOf } from '../platform/openapi/schemas';
import type { Runtime } from '../platform/runtime';
import { byId, jsonBody, recordId } from '../resources/common/routing';
import { scopedTo } from './access';

// DESIGN.md, control API: /__admin/faults; decisions.md, Faults.

// A fault on a method no route serves could never fire.
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const MatchSchema = z
  .object({
    method: z
      .string()
      .refine((m) => METHODS.has(m.toUpperCase()), {
        message: `must be a method the API serves: ${[...METHODS].join(', ')}`,
      })
      .optional()
      .openapi({ description: 'Case-insensitive' }),
    path: z
      .string()
      .regex(/^\//, 'must start with /')
      .optional()
      .openapi({ description: 'A prefix of the path, with or without /v1 (`/jobs` = `/v1/jobs`)' }),
    workspace_id: z.string().min(1).optional(),
    key_id: z.string().min(1).optional(),
    target: z
      .url({ protocol: /^https?$/, error: 'must be an http or https URL' })
      .optional()
      .openapi({
        description: "A URL prefix: svc's own deliveries there fail as if the receiver had",
      }),
  })
  .strict()
  .openapi('AdminFaultMatch');

const ActionSchema = z
  .object({
    status: z.number().int().min(400).max(599).optional().openapi({
      description:
        "A call's: a status of the spec's error table or any 5xx; a receiver's (match.target): any 4xx or 5xx",
    }),
    code: z
      .enum(errorCodes as [ErrorCode, ...ErrorCode[]])
      .optional()
      .openapi({
        description:
          "The spec's error code, agreeing with status (server_error with any 5xx); default the one for status",
      }),
    delay_ms: z.number().int().min(0).max(MAX_DELAY_MS).optional(),
    drop: z.literal(true).optional().openapi({ description: 'Close the connection, no answer' }),
  })
  .strict()
  .openapi('AdminFaultAction');

// spec, Errors: the statuses of the error table; rule 1 names every 5xx worth retrying, so a 502 or
// 503 a proxy answers is what a client must survive too, with the table's 5xx code.
const API_4XX: number[] = [...new Set(Object.values(errorStatus))]
  .filter((s) => s < 500)
  .sort((a, b) => a - b);
const callStatus = (status: number) => status >= 500 || API_4XX.includes(status);
const agrees = (code: ErrorCode, status: number) =>
  code === 'server_error' ? status >= 500 : errorStatus[code] === status;

export const FaultInputSchema = z
  .object({
    match: MatchSchema,
    action: ActionSchema,
    times: z.number().int().min(1).optional(),
    probability: z.number().min(0).max(1).optional(),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .optional()
      .openapi({ description: "The draws' seed; default derived from the fault's id" }),
  })
  .strict()
  .superRefine((body, ctx) => {
    const { action, match } = body;
    if (Object.keys(action).length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: 'give status, code, delay_ms or drop',
        path: ['action'],
      });
    }
    if (action.drop && (action.status !== undefined || action.code !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        message: 'a dropped connection answers no status or code',
        path: ['action', 'drop'],
      });
    }
    if (match.target !== undefined && (match.method ?? match.path ?? match.key_id) !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'target matches deliveries; method, path and key_id match API calls: not both',
        path: ['match', 'target'],
      });
    }
    const { status, code } = action;
    if (status !== undefined && match.target === undefined && !callStatus(status)) {
      ctx.addIssue({
        code: 'custom',
        message: `the API answers ${API_4XX.join(', ')} or a 5xx; a receiver (match.target) may answer any 4xx`,
        path: ['action', 'status'],
      });
    } else if (status !== undefined && code !== undefined && !agrees(code, status)) {
      ctx.addIssue({
        code: 'custom',
        message: `${code} is answered with ${code === 'server_error' ? 'a 5xx' : errorStatus[code]}, not ${status}`,
        path: ['action', 'code'],
      });
    }
  })
  .openapi('AdminFaultCreate');

export const FaultSchema = z
  .object({
    id: z.string(),
    object: z.literal('fault'),
    match: MatchSchema,
    action: ActionSchema,
    times: z.number().int().nullable(),
    remaining: z.number().int().nullable(),
    probability: z.number(),
    seed: z.number().int(),
    fired: z.number().int(),
    state: z.enum(['active', 'spent']),
    created_at: z.string(),
  })
  .openapi('AdminFault');

const create = createRoute({
  method: 'post',
  path: '/faults',
  operationId: 'createFault',
  summary: 'Inject a fault into matching /v1 calls, or into deliveries to a target',
  request: { body: jsonBody(FaultInputSchema) },
  responses: {
    201: jsonResponse(FaultSchema, 'The fault as stored'),
    ...adminWriteErrors('invalid_request'),
  },
});

const list = createRoute({
  method: 'get',
  path: '/faults',
  operationId: 'listFaults',
  summary: 'The faults, oldest first, spent ones included, with how often each fired',
  responses: { 200: jsonResponse(listOf(FaultSchema, 'AdminFaultList'), 'Faults') },
});

const read = createRoute({
  method: 'get',
  path: '/faults/{id}',
  operationId: 'getFault',
  summary: 'One fault',
  ...byId,
  responses: { 200: jsonResponse(FaultSchema, 'The fault'), ...errorResponses('not_found') },
});

const remove = createRoute({
  method: 'delete',
  path: '/faults/{id}',
  operationId: 'deleteFault',
  summary: 'Remove one fault',
  ...byId,
  responses: {
    200: jsonResponse(FaultSchema, 'The removed fault'),
    ...errorResponses('not_found'),
  },
});

const clear = createRoute({
  method: 'delete',
  path: '/faults',
  operationId: 'clearFaults',
  summary: 'Remove every fault',
  responses: {
    200: jsonResponse(z.object({ deleted: z.number().int() }), 'How many were removed'),
  },
});

/**
 * decisions.md, Faults: a workspace or credential named that svc does not have (or a revoked key,
 * whose calls are refused before any fault) is a fault that could never fire: 400 naming it, as
 * DESIGN answers any record named in a body that is not there.
 */
export function checkNames(rt: Runtime, match: FaultMatch): void {
  const { global } = rt.store;
  const workspaceId = match.workspace_id?.toLowerCase();
  if (workspaceId !== undefined && !global.get('workspaces', workspaceId)) {
    throw invalid('no workspace has this id', 'match.workspace_id');
  }
  if (match.key_id === undefined) {
    return;
  }
  const id = match.key_id.toLowerCase();
  const key = global.get('api_keys', id);
  const connection = key ? undefined : global.get('oauth_connections', id);
  const owner = key?.workspace_id ?? connection?.workspace_id;
  if (owner === undefined) {
    throw invalid('no API key or OAuth connection has this id', 'match.key_id');
  }
  if (key?.revoked_at || connection?.disconnected_at) {
    throw invalid(
      'this credential is revoked: its calls are refused 401 before any fault',
      'match.key_id',
    );
  }
  if (workspaceId !== undefined && owner !== workspaceId) {
    throw invalid(
      'this credential belongs to another workspace than match.workspace_id',
      'match.key_id',
    );
  }
}

export function faultAdmin(rt: Runtime) {
  const { faults } = rt;
  const one = (id: string) => {
    const f = faults.get(id);
    if (!f) {
      throw notFound('fault');
    }
    return f;
  };
  /** The faults the caller sees: all, or a control token's workspace's. */
  const visible = (c: Context<AppEnv>) => faults.listFor(c.get('adminScope'));
  return new OpenAPIHono<AppEnv>()
    .openapi(create, async (c) => {
      const asked = c.req.valid('json') as NewFault;
      // A control token's fault matches its workspace, named or not (decisions.md, access).
      const workspaceId = scopedTo(c, asked.match.workspace_id);
      const input =
        workspaceId === undefined
          ? asked
          : { ...asked, match: { ...asked.match, workspace_id: workspaceId } };
      checkNames(rt, input.match);
      return c.json(await faults.add(input), 201);
    })
    .openapi(list, (c) =>
      c.json(
        { object: 'list' as const, data: visible(c), has_more: false, next_cursor: null },
        200,
      ),
    )
    .openapi(read, (c) => c.json(one(recordId(c)), 200))
    .openapi(remove, async (c) => {
      const f = one(recordId(c));
      await faults.delete(f.id);
      return c.json(f, 200);
    })
    .openapi(clear, async (c) => {
      const deleted =
        c.get('adminScope') === undefined
          ? await faults.clear()
          : await faults.delete(...visible(c).map((f) => f.id));
      return c.json({ deleted }, 200);
    });
}
