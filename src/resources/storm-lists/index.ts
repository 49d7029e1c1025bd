import type { Family } from '../../platform/family';
import { geography } from '../common/geo';
import { stormListAdmin } from './admin';
import { stormListEvents } from './events';
import { stormListBuild } from './finish';
import { stormListPages } from './pages';
import { stormListRecords } from './present';
import { stormListRoutes } from './routes';

// Storm lists: read only through the API, built app-side (POST /__admin/workspaces/{id}/
// storm_lists) and on the clock; storm_list.ready fires when a build finishes (ready, partial or failed).
export const stormLists: Family = {
  name: 'storm-lists',
  routes: stormListRoutes,
  records: stormListRecords,
  events: stormListEvents,
  due: [stormListBuild],
  admin: stormListAdmin,
  pages: stormListPages,
  seed: () => Promise.all([import('./seed'), geography()]).then(([m, geo]) => m.stormListSeed(geo)),
};
