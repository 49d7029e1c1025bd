import type { Family } from '../../platform/family';
import { pingRoutes } from './routes';

/** GET /ping: the credential's workspace. */
export const workspace: Family = { name: 'workspace', routes: pingRoutes };
