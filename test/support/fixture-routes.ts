import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../src/platform/app-env';
import { requireWrite } from '../../src/platform/auth';
import { ApiError } from '../../src/platform/errors';
import { newId } from '../../src/platform/ids';
import {
  baseErrors,
  errorResponses,
  jsonResponse,
  writeErrors,
} from '../../src/platform/openapi/responses';
import { DeletedSchema, listOf, timestamp } from '../../src/platform/openapi/schemas';
import { listBody, pageStart, pagingQuery, timeFilter } from '../../src/platform/paging';
import { subLimit } from '../../src/platform/rate-limit';
import type { Runtime } from '../../src/platform/runtime';
import type { Rec } from '../../src/store';

// A small resource built the way real ones are (schema, requireWrite, paging, idempotency),
// mounted into /v1 by platform tests: it proves the platform's rules before, and apart from,
// any real resource.
type Widget = Rec & {
  object: 'widget';
  name: string;
  count: number | null;
  color: string | null;
  created_at: string;
  updated_at: string;
};

declare module '../../src/store/collections' {
  interface WorkspaceCollections {
    widgets: Widget;
  }
}

const WidgetSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('widget'),
    name: z.string(),
    count: z.number().int().nullable(),
    color: z.string().nullable(),
    created_at: timestamp(),
    updated_at: timestamp(),
  })
  .openapi('Widget');

const body = z.object({
  name: z.string().min(1).max(50),
  count: z.number().int().min(0).optional(),
  color: z.enum(['red', 'green', 'blue']).optional(),
});

const present = (w: Widget) => ({ ...w });

/** Requests to POST /gate wait here until the test opens the gate. */
export const gate = {
  open: (): void => {},
  waiting: Promise.resolve(),
  close(): void {
    this.waiting = new Promise((resolve) => {
      this.open = resolve;
    });
  },
};
const idParam = z.object({ id: z.uuid() });

export function widgetRoutes(v1: OpenAPIHono<AppEnv>, rt: Runtime): void {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(
    createRoute({
      method: 'post',
      path: '/widgets',
      middleware: [requireWrite()] as const,
      request: { body: { required: true, content: { 'application/json': { schema: body } } } },
      responses: {
        201: jsonResponse(WidgetSchema, 'Created'),
        ...errorResponses(...writeErrors, ...baseErrors),
      },
    }),
    (c) => {
      const { ws, clock } = c.get('ctx');
      const input = c.req.valid('json');
      const now = clock.iso();
      const widget = ws.transaction((tx) =>
        tx.put('widgets', {
          id: newId(),
          object: 'widget',
          name: input.name,
          count: input.count ?? null,
          color: input.color ?? null,
          created_at: now,
          updated_at: now,
        }),
      );
      return c.json(present(widget), 201);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/widgets',
      request: {
        query: pagingQuery.extend({ color: z.enum(['red', 'green', 'blue']).optional() }),
      },
      responses: {
        200: jsonResponse(listOf(WidgetSchema, 'WidgetList'), 'Widgets'),
        ...errorResponses('invalid_request', ...baseErrors),
      },
    }),
    (c) => {
      const ctx = c.get('ctx');
      const q = c.req.valid('query');
      const inTime = timeFilter(q);
      const page = ctx.ws.scan('widgets', {
        after: pageStart(rt, ctx, 'widgets', q),
        limit: q.limit,
        where: (w) => inTime(w) && (q.color === undefined || w.color === q.color),
      });
      return c.json(listBody(rt, ctx, 'widgets', page, present), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'patch',
      path: '/widgets/{id}',
      middleware: [requireWrite()] as const,
      request: {
        params: idParam,
        body: { required: true, content: { 'application/json': { schema: body.partial() } } },
      },
      responses: {
        200: jsonResponse(WidgetSchema, 'Updated'),
        ...errorResponses(...writeErrors, 'not_found', ...baseErrors),
      },
    }),
    (c) => {
      const { ws, clock } = c.get('ctx');
      const { id } = c.req.valid('param');
      const input = c.req.valid('json');
      const widget = ws.transaction((tx) => {
        const found = tx.get('widgets', id);
        if (!found) {
          throw new ApiError('not_found', 'no such widget');
        }
        return tx.put('widgets', { ...found, ...input, updated_at: clock.iso() });
      });
      return c.json(present(widget), 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'delete',
      path: '/widgets/{id}',
      middleware: [requireWrite()] as const,
      request: { params: idParam },
      responses: {
        200: jsonResponse(DeletedSchema, 'Deleted'),
        ...errorResponses(...writeErrors, 'not_found', ...baseErrors),
      },
    }),
    (c) => {
      const { ws } = c.get('ctx');
      const { id } = c.req.valid('param');
      ws.transaction((tx) => {
        if (!tx.get('widgets', id)) {
          throw new ApiError('not_found', 'no such widget');
        }
        tx.delete('widgets', id);
      });
      return c.json({ id, object: 'widget', deleted: true as const }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/boom',
      responses: { 200: jsonResponse(WidgetSchema, 'Never'), ...errorResponses(...baseErrors) },
    }),
    () => {
      throw new Error('secret internals: /etc/passwd at db.ts:42');
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/boom',
      middleware: [requireWrite()] as const,
      responses: {
        201: jsonResponse(WidgetSchema, 'Never'),
        ...errorResponses(...writeErrors, ...baseErrors),
      },
    }),
    () => {
      throw new Error('secret internals of a write');
    },
  );
  app.openapi(
    createRoute({
      method: 'post',
      path: '/gate',
      middleware: [requireWrite()] as const,
      responses: {
        200: jsonResponse(z.object({ passed: z.boolean() }).openapi('GatePassed'), 'Through'),
        ...errorResponses(...writeErrors, ...baseErrors),
      },
    }),
    async (c) => {
      await gate.waiting;
      return c.json({ passed: true }, 200);
    },
  );
  app.openapi(
    createRoute({
      method: 'get',
      path: '/limited',
      middleware: [subLimit(rt, 'limited', 3)] as const,
      responses: {
        200: jsonResponse(z.object({ ok: z.boolean() }).openapi('LimitedOk'), 'Fine'),
        ...errorResponses(...baseErrors),
      },
    }),
    (c) => c.json({ ok: true }, 200),
  );
  v1.route('/', app);
}
