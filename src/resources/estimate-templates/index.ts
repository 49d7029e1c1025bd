import type { Family } from '../../platform/family';
import { estimateTemplateRoutes } from './routes';

export const estimateTemplates: Family = {
  name: 'estimate-templates',
  routes: estimateTemplateRoutes,
  seed: () => import('./seed').then((m) => m.templateSeed),
};
