import { z } from '@hono/zod-openapi';
import type { EventCatalogue } from '../platform/family';
import { EVENTS, eventDef } from './catalogue';
import { DELIVERIES } from './deliveries';
import { sampleDeliveries } from './samples';

export { deliveryBody, deliveryFields, type EventMeta } from './body';
export { EVENTS, eventDef, familyOfColl, familyOfEvent } from './catalogue';
export { DELIVERIES, type DeliverySchema } from './deliveries';
export { occurrencesOf } from './derive';
export { matches } from './filters';
export { type Sample, testSample } from './samples';

/** The catalogue as routes see it (RouteDeps.events). */
export const catalogue: EventCatalogue = {
  all: EVENTS,
  find: eventDef,
  samples: sampleDeliveries,
  bodies: z.union(DELIVERIES.map((d) => d.schema)),
};
