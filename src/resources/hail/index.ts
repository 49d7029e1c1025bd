import type { Family } from '../../platform/family';
import { hailRoutes } from './routes';

// Hail history (spec, Hail): a read of the storm model at a place; no records, no events.
export const hail: Family = {
  name: 'hail',
  routes: hailRoutes,
};
