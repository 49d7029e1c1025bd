import type { Family } from '../../platform/family';
import { pipelinePages } from './pages';
import { pipelineRoutes } from './routes';

export const pipelines: Family = {
  name: 'pipelines',
  routes: pipelineRoutes,
  pages: pipelinePages,
  seed: () => import('./seed').then((m) => m.pipelineSeed),
};
