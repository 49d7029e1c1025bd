import { type FamilyPages, listOf } from '../../../platform/family';
import { jobNameOf } from '../../../web/ui/on-job';
import { text } from '../../../web/ui/parts';
import { pagesOf } from '../../../web/ui/routes';
import { estimatesOnJob } from './on-job';
import { estimatePdfs } from './pdf';
import { estimatesOnPortal } from './portal';
import { estimatePage } from './record';
import { estimateView } from './view';

export const estimatePages: FamilyPages = {
  routes: pagesOf(estimatePage, estimateView, estimatePdfs),
  workspace: {
    id: 'estimates',
    title: 'Estimates',
    list: listOf('estimates', (ctx) => (e) => ({
      href: `/estimates/${e.id}`,
      label: `${text(e.estimate_number)} ${e.title ?? ''}`.trim(),
      detail: `${e.status} · ${jobNameOf(ctx, e.job_id)}`,
      at: e.created_at,
    })),
  },
  onJob: estimatesOnJob,
  onPortal: estimatesOnPortal,
};
