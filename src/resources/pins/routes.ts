import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import type { RouteDeps } from '../../platform/family';
import { geography } from '../common/geo';
import {
  byId,
  changeErrors,
  createOperation,
  deletedResponse,
  getOperation,
  listOperation,
  pageAnswer,
  recordAnswer,
  recordId,
  updateOperation,
  writeOnly,
} from '../common/routing';
import { PinCreateSchema, PinListQuery, PinUpdateSchema } from './input';
import { pinRecords } from './present';
import { PinListSchema, PinSchema } from './schema';
import { createPin, deletePin, getPin, listPins, movesPin, updatePin } from './service';

const tags = ['Pins'];

const list = listOperation({
  path: '/pins',
  operationId: 'listPins',
  summary: 'Door knocks (canvassing pins), newest first',
  tags,
  query: PinListQuery,
  schema: PinListSchema,
  description: 'A page of pins',
});

const create = createOperation({
  path: '/pins',
  operationId: 'createPin',
  summary: 'Log a door knock, at an address or at latitude and longitude',
  tags,
  body: PinCreateSchema,
  schema: PinSchema,
  description: 'The pin, placed',
});

const getOne = getOperation({
  path: '/pins/{id}',
  operationId: 'getPin',
  summary: 'One pin',
  tags,
  schema: PinSchema,
  description: 'The pin',
});

const update = updateOperation({
  path: '/pins/{id}',
  operationId: 'updatePin',
  summary: 'Change a pin, most often its knock result (fires pin.result_changed when it moves)',
  tags,
  body: PinUpdateSchema,
  schema: PinSchema,
  description: 'The pin as it now is',
});

const remove = createRoute({
  method: 'delete',
  path: '/pins/{id}',
  operationId: 'deletePin',
  summary: 'Delete a pin for good',
  tags,
  middleware: writeOnly,
  ...byId,
  responses: { 200: deletedResponse(), ...changeErrors(true) },
});

// Placing a pin reads the ZIP table, loaded on the first request that needs it (geo.ts).
export function pinRoutes(deps: RouteDeps) {
  return new OpenAPIHono<AppEnv>()
    .openapi(list, (c) => {
      const ctx = c.get('ctx');
      const q = c.req.valid('query');
      const scan = (after: Parameters<typeof listPins>[2]) => listPins(ctx, q, after);
      return pageAnswer(c, deps, 'pins', q, scan, pinRecords);
    })
    .openapi(create, async (c) => {
      const geo = await geography();
      return recordAnswer(c, pinRecords, createPin(c.get('ctx'), geo, c.req.valid('json')), 201);
    })
    .openapi(getOne, (c) => recordAnswer(c, pinRecords, getPin(c.get('ctx'), recordId(c)), 200))
    .openapi(update, async (c) => {
      const input = c.req.valid('json');
      const geo = movesPin(input) ? await geography() : undefined;
      return recordAnswer(c, pinRecords, updatePin(c.get('ctx'), geo, recordId(c), input), 200);
    })
    .openapi(remove, (c) => {
      const { id } = deletePin(c.get('ctx'), recordId(c));
      return c.json({ id, object: 'pin', deleted: true as const }, 200);
    });
}
