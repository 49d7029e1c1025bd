import type { Family } from '../../platform/family';
import { pipelineRoutes } from './routes';

export const pipelines: Family = {
  name: 'pipelines',
  routes: pipelineRoutes,
  seed: () => import('./seed').then((m) => m.pipelineSeed),
};
