import type { Family } from '../../platform/family';
import { userRoutes } from './routes';

export const users: Family = {
  name: 'users',
  routes: userRoutes,
  seed: () => import('./seed').then((m) => m.userSeed),
};
