import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../platform/app-env';
import { ApiError } from '../platform/errors';
import { adminWriteErrors, errorResponses, jsonResponse } from '../platform/openapi/responses';
import type { Runtime } from '../platform/runtime';
import { byId, recordId } from '../resources/common/routing';
import { clockMove, moveOf, target } from './clock';
import { ClockSchema } from './schemas';

// decisions.md, Clock: a workspace's clock runs ahead of the server's by an offset of its own.
// Moving it runs that workspace's work alone; the server's clock and every other workspace's
// stay where they are.

const read = createRoute({
  method: 'get',
  path: '/workspaces/{id}/clock',
  operationId: 'getWorkspaceClock',
  summary: "One workspace's clock",
  ...byId,
  responses: {
    200: jsonResponse(ClockSchema, 'What time it is for the workspace'),
    ...errorResponses('invalid_request', 'not_found'),
  },
});

const move = createRoute({
  method: 'post',
  path: '/workspaces/{id}/clock',
  operationId: 'moveWorkspaceClock',
  summary:
    "Move one workspace's clock forward, running that workspace's work that falls due on the way, in time order; the server's clock and other workspaces' stay",
  ...byId,
  request: clockMove,
  responses: {
    200: jsonResponse(ClockSchema, "The workspace's clock after the move"),
    ...adminWriteErrors('invalid_request', 'not_found'),
  },
});

function clockOf(rt: Runtime, wsId: string) {
  if (!rt.store.global.get('workspaces', wsId)) {
    throw new ApiError('not_found', 'no such workspace');
  }
  return rt.clocks.of(wsId);
}

/**
 * Moves workspace `wsId`'s clock to `targetMs` (on its clock), running its work due on the way,
 * and keeps where it stands in its record. A workspace that expires on the way is deleted there,
 * and the move ends with it.
 */
export async function advanceWorkspaceClock(
  rt: Runtime,
  wsId: string,
  targetMs: number,
): Promise<void> {
  const clock = clockOf(rt, wsId);
  // Work due in it must be known before its time moves.
  await rt.store.load(wsId);
  await rt.scheduler.advanceGroup(wsId, clock, targetMs);
  rt.store.transaction((tx) => {
    const ws = tx.global.get('workspaces', wsId);
    if (ws && (ws.clock_offset_ms ?? 0) !== clock.offsetMs) {
      tx.global.put('workspaces', { ...ws, clock_offset_ms: clock.offsetMs });
    }
  });
  await rt.store.sync();
}

export function workspaceClockAdmin(rt: Runtime) {
  return new OpenAPIHono<AppEnv>()
    .openapi(read, (c) => c.json({ now: clockOf(rt, recordId(c)).iso() }, 200))
    .openapi(move, async (c) => {
      const asked = moveOf(c.req.valid('json'));
      const wsId = recordId(c);
      const clock = clockOf(rt, wsId);
      await advanceWorkspaceClock(rt, wsId, target(clock, asked));
      return c.json({ now: clock.iso() }, 200);
    });
}
