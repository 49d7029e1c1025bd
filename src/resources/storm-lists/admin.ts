import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { type AppEnv, appUrlFor } from '../../platform/app-env';
import { adminWriteErrors, jsonResponse } from '../../platform/openapi/responses';
import type { Runtime } from '../../platform/runtime';
import { appContext } from '../../platform/service-context';
import { date, text } from '../common/fields';
import { byId, jsonBody, recordId } from '../common/routing';
import { DEFAULT_RADIUS_MI, MAX_REACH_MI } from './area';
import { readyGeography } from './finish';
import { presentStormList } from './present';
import { STORM_LIST_SOURCES, StormListSchema } from './schema';
import {
  BUILD_SECONDS,
  DEFAULT_CAP,
  DEFAULT_DEDUPE_DAYS,
  MAX_CAP,
  MAX_WINDOW_DAYS,
  requestBuild,
} from './service';

const point = z.tuple([z.number().min(-90).max(90), z.number().min(-180).max(180)]);

const AreaSchema = z
  .object({
    polygon: z
      .array(point)
      .min(3)
      .max(200)
      .optional()
      .openapi({ description: 'A shape drawn on the map: [latitude, longitude] corners (drawn)' }),
    postal_code: z
      .string()
      .max(10)
      .optional()
      .openapi({ description: "A circle round a US ZIP's centre (radius)" }),
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
    radius_mi: z
      .number()
      .gt(0, 'must be greater than 0')
      .max(MAX_REACH_MI)
      .optional()
      .openapi({ description: `The circle's radius in miles (default ${DEFAULT_RADIUS_MI})` }),
  })
  .openapi('AdminStormListArea', {
    description: `A polygon, or a circle round a postal_code or a latitude and longitude; within ${MAX_REACH_MI} miles of its centre, in the United States. Default: a circle round the workspace's market`,
  });

const BuildSchema = z
  .object({
    name: text(200).min(1, 'must not be empty'),
    window_from: date().openapi({ description: 'First storm day (not in the future)' }),
    window_to: date().openapi({
      description: `Last storm day: not before window_from, not in the future; the window spans at most ${MAX_WINDOW_DAYS} days`,
    }),
    min_size_in: z
      .number()
      .gt(0, 'must be greater than 0')
      .max(10)
      .openapi({ description: 'Smallest hail, inches' }),
    property_cap: z
      .number()
      .int()
      .min(1)
      .max(MAX_CAP)
      .optional()
      .openapi({ description: `At most this many properties (default ${DEFAULT_CAP})` }),
    dedupe_days: z
      .number()
      .int()
      .min(0)
      .max(3650)
      .optional()
      .openapi({
        description: `Leave out addresses on a list built in this many days (default ${DEFAULT_DEDUPE_DAYS}; 0: none)`,
      }),
    source: z.enum(STORM_LIST_SOURCES).optional().openapi({ description: 'Default manual' }),
    area: AreaSchema.optional(),
  })
  .openapi('AdminStormListBuild');

const build = createRoute({
  method: 'post',
  path: '/workspaces/{id}/storm_lists',
  operationId: 'buildStormList',
  summary: `Build a storm list as the app does: building, then ready, partial or failed ${BUILD_SECONDS} s later on the clock`,
  ...byId,
  request: { body: jsonBody(BuildSchema) },
  responses: {
    201: jsonResponse(StormListSchema, 'The list, building'),
    ...adminWriteErrors('invalid_request', 'not_found'),
  },
});

/** DESIGN.md, control API: storm lists are built in the app (spec, Scope rule 4). */
export function stormListAdmin(rt: Runtime) {
  return new OpenAPIHono<AppEnv>().openapi(build, async (c) => {
    const ctx = appContext(rt, recordId(c), appUrlFor(rt.config, c.req.url));
    const list = requestBuild(ctx, c.req.valid('json'), await readyGeography());
    return c.json(presentStormList(ctx, list), 201);
  });
}
