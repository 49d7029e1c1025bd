import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../platform/app-env';
import { ApiError } from '../platform/errors';
import { adminWriteErrors, jsonResponse } from '../platform/openapi/responses';
import { parseInstant } from '../platform/paging';
import type { Runtime } from '../platform/runtime';
import { advanceClock } from '../platform/store-meta';
import { ClockSchema } from './schemas';

const read = createRoute({
  method: 'get',
  path: '/clock',
  operationId: 'getClock',
  summary: 'The virtual clock',
  responses: { 200: jsonResponse(ClockSchema, 'What time it is for svc') },
});

const move = createRoute({
  method: 'post',
  path: '/clock',
  operationId: 'moveClock',
  summary: 'Move the clock forward, running all work that falls due on the way, in time order',
  request: {
    body: {
      required: true,
      content: {
        'application/json': {
          schema: z.object({
            advance_seconds: z
              .number()
              .min(0)
              .max(10 * 365 * 24 * 3600)
              .optional(),
            set: z.string().optional().openapi({ format: 'date-time' }),
          }),
        },
      },
    },
  },
  responses: {
    200: jsonResponse(ClockSchema, 'The clock after the move'),
    ...adminWriteErrors('invalid_request'),
  },
});

const SET_SLACK_MS = 5000;

// decisions.md: the clock only moves forward; stored timestamps and the order of lists rely on it.
function target(
  rt: Runtime,
  body: { advance_seconds?: number | undefined; set?: string | undefined },
): number {
  // decisions.md: neither names the field to send; both name the one too many.
  if (body.advance_seconds === undefined && body.set === undefined) {
    throw new ApiError('invalid_request', 'send advance_seconds or set', 'advance_seconds');
  }
  if (body.advance_seconds !== undefined && body.set !== undefined) {
    throw new ApiError('invalid_request', 'send advance_seconds or set, not both', 'set');
  }
  if (body.advance_seconds !== undefined) {
    return rt.clock.nowMs() + Math.round(body.advance_seconds * 1000);
  }
  const ms = parseInstant(body.set ?? '');
  if (ms === undefined) {
    throw new ApiError('invalid_request', 'set must be an ISO date-time', 'set');
  }
  // decisions.md: an instant a few seconds past (the `now` a script just read) is now, not an error.
  if (ms < rt.clock.nowMs() - SET_SLACK_MS) {
    throw new ApiError(
      'invalid_request',
      'the clock only moves forward; set is in the past',
      'set',
    );
  }
  return ms;
}

export function clockAdmin(rt: Runtime) {
  return new OpenAPIHono<AppEnv>()
    .openapi(read, (c) => c.json({ now: rt.clock.iso() }, 200))
    .openapi(move, async (c) => {
      await advanceClock(rt, target(rt, c.req.valid('json')));
      return c.json({ now: rt.clock.iso() }, 200);
    });
}
