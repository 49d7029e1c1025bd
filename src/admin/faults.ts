import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../platform/context';
import { type ErrorCode, errorCodes, notFound } from '../platform/errors';
import { MAX_DELAY_MS, type NewFault } from '../platform/faults';
import { adminWriteErrors, errorResponses, jsonResponse } from '../platform/openapi/responses';
import { listOf } from '../platform/openapi/schemas';
import { byId, jsonBody, recordId } from '../resources/common/routing';
import type { Runtime } from '../runtime';

// DESIGN.md, control API: /__admin/faults; decisions.md, Faults.

const MatchSchema = z
  .object({
    method: z
      .string()
      .regex(/^[A-Za-z]+$/, 'must be an HTTP method such as GET')
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
    status: z.number().int().min(400).max(599).optional(),
    code: z
      .enum(errorCodes as [ErrorCode, ...ErrorCode[]])
      .optional()
      .openapi({
        description: "The spec's error code; default the one for status, else server_error",
      }),
    delay_ms: z.number().int().min(0).max(MAX_DELAY_MS).optional(),
    drop: z.literal(true).optional().openapi({ description: 'Close the connection, no answer' }),
  })
  .strict()
  .openapi('AdminFaultAction');

const FaultInput = z
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
  })
  .openapi('AdminFaultCreate');

const FaultSchema = z
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
  request: { body: jsonBody(FaultInput) },
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

export function faultAdmin(rt: Runtime) {
  const { faults } = rt;
  const one = (id: string) => {
    const f = faults.get(id);
    if (!f) {
      throw notFound('fault');
    }
    return f;
  };
  return new OpenAPIHono<AppEnv>()
    .openapi(create, (c) => c.json(faults.add(c.req.valid('json') as NewFault), 201))
    .openapi(list, (c) =>
      c.json(
        { object: 'list' as const, data: faults.list(), has_more: false, next_cursor: null },
        200,
      ),
    )
    .openapi(read, (c) => c.json(one(recordId(c)), 200))
    .openapi(remove, (c) => {
      const f = one(recordId(c));
      faults.delete(f.id);
      return c.json(f, 200);
    })
    .openapi(clear, (c) => {
      const deleted = faults.list().length;
      faults.clear();
      return c.json({ deleted }, 200);
    });
}
