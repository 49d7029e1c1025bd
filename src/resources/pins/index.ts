import type { Family } from '../../platform/family';
import { geography } from '../common/geo';
import { pinAdmin } from './admin';
import { pinEvents } from './events';
import { pinPages } from './pages';
import { pinRecords } from './present';
import { pinRoutes } from './routes';

export const pins: Family = {
  name: 'pins',
  routes: pinRoutes,
  records: pinRecords,
  events: pinEvents,
  admin: pinAdmin,
  // Seeded pins are placed as POST /pins places them, by the one ZIP table.
  pages: pinPages,
  seed: () => Promise.all([import('./seed'), geography()]).then(([m, geo]) => m.pinSeed(geo)),
};
