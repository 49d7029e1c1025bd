import type { EventCatalogue } from '../platform/family';
import { EVENTS, eventDef } from './catalogue';
import { sampleDeliveries } from './samples';

export { deliveryBody, deliveryFields, type EventMeta } from './body';
export { EVENTS, eventDef, familyOfColl, familyOfEvent } from './catalogue';
export { occurrencesOf } from './derive';
export { matches } from './filters';
export { type Sample, testSample } from './samples';

/** The catalogue as routes see it (RouteDeps.events). */
export const catalogue: EventCatalogue = {
  all: EVENTS,
  find: eventDef,
  samples: sampleDeliveries,
};
