import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../platform/context';
import { errorResponses, jsonResponse } from '../platform/openapi/responses';
import { listOf } from '../platform/openapi/schemas';
import { limitParam } from '../platform/paging';
import type { RequestLog } from '../platform/request-log';

const LoggedRequestSchema = z
  .object({
    id: z.string(),
    at: z.string(),
    method: z.string(),
    path: z.string(),
    query: z.record(z.string(), z.string()),
    status: z.number().int(),
    duration_ms: z.number(),
    key_id: z.string(),
    credential_kind: z.string(),
    workspace_id: z.string(),
    request_id: z.string(),
    request_headers: z.record(z.string(), z.string()),
    request_body: z.string().nullable(),
    request_body_truncated: z.boolean(),
    response_body: z.string().nullable(),
    response_body_truncated: z.boolean(),
  })
  .openapi('AdminLoggedRequest');

const list = createRoute({
  method: 'get',
  path: '/requests',
  operationId: 'listRequests',
  summary: 'The request log: every call made with a credential in the last 14 days, newest first',
  request: {
    query: z.object({
      workspace_id: z.string().optional(),
      key_id: z.string().optional(),
      method: z.string().optional(),
      path: z.string().optional().openapi({ description: 'A prefix of the logged path' }),
      status: z
        .string()
        .regex(/^([1-5]\d\d|[1-5][xX][xX])$/, 'must be a status such as 404 or a class such as 4xx')
        .optional(),
      limit: limitParam,
      cursor: z.string().optional(),
    }),
  },
  responses: {
    200: jsonResponse(listOf(LoggedRequestSchema, 'AdminLoggedRequestList'), 'Logged requests'),
    ...errorResponses('invalid_request'),
  },
});

export function requestLogAdmin(log: RequestLog) {
  return new OpenAPIHono<AppEnv>().openapi(list, async (c) => {
    const { limit, cursor, ...filter } = c.req.valid('query');
    const { data, hasMore } = await log.query(filter, limit, cursor);
    const last = data.at(-1);
    return c.json(
      {
        object: 'list' as const,
        data,
        has_more: hasMore,
        next_cursor: hasMore && last ? last.id : null,
      },
      200,
    );
  });
}
