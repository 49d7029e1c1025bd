import { type FamilyPages, listOf } from '../../../platform/family';
import { jobLabel } from '../../../web/ui/on-job';
import { pagesOf } from '../../../web/ui/routes';
import { portalRoutes } from './portal';
import { jobPage } from './record';

export const jobPages: FamilyPages = {
  routes: pagesOf(jobPage, portalRoutes),
  workspace: {
    id: 'jobs',
    title: 'Jobs',
    list: listOf('jobs', () => (j) => ({
      href: `/jobs/${j.id}`,
      label: jobLabel(j),
      detail: j.job_type,
      at: j.created_at,
    })),
  },
};
