import type { z } from '@hono/zod-openapi';
import { defineRecords, shape } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';
import {
  type StormList,
  type StormListProperty,
  StormListPropertySchema,
  StormListSchema,
} from './schema';

export const presentStormList = (
  ctx: ServiceContext,
  list: StormList,
): z.infer<typeof StormListSchema> =>
  shape(StormListSchema, list, {
    object: 'storm_list',
    url: `${ctx.appUrl}/storm_lists/${list.id}`,
  });

/** Storm lists as the API shows them: every one (none is ever deleted). */
export const stormListRecords = defineRecords({
  coll: 'storm_lists',
  schema: StormListSchema,
  present: presentStormList,
  visible: () => true,
  reads: [],
});

export const presentProperty = (
  _ctx: ServiceContext,
  p: StormListProperty,
): z.infer<typeof StormListPropertySchema> =>
  shape(StormListPropertySchema, p, { object: 'storm_list_property' });

/** The properties of the lists, as GET /storm_lists/{id}/properties shows them. */
export const propertyRecords = defineRecords({
  coll: 'storm_list_properties',
  schema: StormListPropertySchema,
  present: presentProperty,
  visible: () => true,
  reads: [],
});
