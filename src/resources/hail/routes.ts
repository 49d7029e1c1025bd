import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import type { RouteDeps } from '../../platform/family';
import { jsonResponse } from '../../platform/openapi/responses';
import { subLimit } from '../../platform/rate-limit';
import { centralDate } from '../common/central-time';
import { geography } from '../common/geo';
import { readErrors } from '../common/routing';
import { HailQuery, HailReportSchema } from './schema';
import { hailReport } from './service';

/** spec, Limits: hail history lookups, 20 a minute per key, inside the general limit. */
export const HAIL_LOOKUPS_A_MINUTE = 20;

export function hailRoutes(deps: RouteDeps) {
  const history = createRoute({
    method: 'get',
    path: '/hail_history',
    operationId: 'getHailHistory',
    summary: 'Every hail day and damaging-wind day at a US address or point since a date',
    description:
      'Ruled by combining radar-estimated size, severe-hail probability and ground reports. United States only. 20 lookups a minute per key, inside the general limit (429 `rate_limited` beyond, with `Retry-After`).',
    tags: ['Hail'],
    // Before the query is read: every lookup counts, one refused as malformed (400) included.
    middleware: [subLimit(deps, 'hail_history', HAIL_LOOKUPS_A_MINUTE)] as const,
    request: { query: HailQuery },
    responses: { 200: jsonResponse(HailReportSchema, 'The hail report'), ...readErrors() },
  });
  return new OpenAPIHono<AppEnv>().openapi(history, async (c) => {
    const q = c.req.valid('query');
    const geo = await geography();
    const ctx = c.get('ctx');
    return c.json(hailReport(geo, q, centralDate(ctx.clock.nowMs())), 200);
  });
}
