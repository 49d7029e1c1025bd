import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../platform/app-env';
import type { Clock } from '../platform/clock';
import { LAST_INSTANT } from '../platform/clock';
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

/** The farthest one move takes a clock: ten years. */
const MAX_MOVE_S = 10 * 365 * 24 * 3600;

/** How a clock is moved: by `advance_seconds`, or to the instant `set`. */
export const clockMove = {
  body: {
    required: true,
    content: {
      'application/json': {
        schema: z.object({
          advance_seconds: z.number().min(0).max(MAX_MOVE_S).optional(),
          set: z.string().optional().openapi({ format: 'date-time' }),
        }),
      },
    },
  },
};

const move = createRoute({
  method: 'post',
  path: '/clock',
  operationId: 'moveClock',
  summary:
    "Move the server's clock forward, and every workspace's with it, running all work that falls due on the way, in time order",
  request: clockMove,
  responses: {
    200: jsonResponse(ClockSchema, 'The clock after the move'),
    ...adminWriteErrors('invalid_request'),
  },
});

const SET_SLACK_MS = 5000;

/** A move as asked for: by so many ms, or to an instant. */
export type ClockMove = { by: number } | { to: number };

/** What a move's body asks for, checked before anything is looked up (as a body always is). */
export function moveOf(body: {
  advance_seconds?: number | undefined;
  set?: string | undefined;
}): ClockMove {
  // decisions.md: neither names the field to send; both name the one too many.
  if (body.advance_seconds === undefined && body.set === undefined) {
    throw new ApiError('invalid_request', 'send advance_seconds or set', 'advance_seconds');
  }
  if (body.advance_seconds !== undefined && body.set !== undefined) {
    throw new ApiError('invalid_request', 'send advance_seconds or set, not both', 'set');
  }
  if (body.advance_seconds !== undefined) {
    return { by: Math.round(body.advance_seconds * 1000) };
  }
  // The document says date-time: a date alone would be midnight in some zone, a guess.
  const ms = /T/i.test(body.set ?? '') ? parseInstant(body.set ?? '') : undefined;
  if (ms === undefined) {
    throw new ApiError('invalid_request', 'set must be an ISO date-time', 'set');
  }
  return { to: ms };
}

// decisions.md: the clock only moves forward; stored timestamps and the order of lists rely on it.
/** Where `move` takes `clock`. */
export function target(clock: Clock, move: ClockMove): number {
  if ('by' in move) {
    if (clock.nowMs() + move.by >= LAST_INSTANT) {
      throw new ApiError(
        'invalid_request',
        'the clock would pass the year 9999',
        'advance_seconds',
      );
    }
    return clock.nowMs() + move.by;
  }
  // Past it, timestamps would leave ISO 8601's four-digit years (and the date-time format).
  if (move.to >= LAST_INSTANT) {
    throw new ApiError('invalid_request', 'set must be before the year 9999', 'set');
  }
  // decisions.md: an instant a few seconds past (the `now` a script just read) is now, not an error.
  if (move.to < clock.nowMs() - SET_SLACK_MS) {
    throw new ApiError(
      'invalid_request',
      'the clock only moves forward; set is in the past',
      'set',
    );
  }
  return move.to;
}

export function clockAdmin(rt: Runtime) {
  return new OpenAPIHono<AppEnv>()
    .openapi(read, (c) => c.json({ now: rt.clock.iso() }, 200))
    .openapi(move, async (c) => {
      await advanceClock(rt, target(rt.clock, moveOf(c.req.valid('json'))));
      return c.json({ now: rt.clock.iso() }, 200);
    });
}
