import { type FamilyPages, listOf } from '../../../platform/family';
import { jobNameOf } from '../../../web/ui/on-job';
import { money } from '../../../web/ui/parts';
import { pagesOf } from '../../../web/ui/routes';
import { paymentsOnJob } from './on-job';
import { payPages } from './pay';
import { paymentPage } from './record';

export const paymentPages: FamilyPages = {
  routes: pagesOf(paymentPage, payPages),
  workspace: {
    id: 'payments',
    title: 'Payments',
    list: listOf('payments', (ctx) => (p) => ({
      href: `/payments/${p.id}`,
      label: money(p.amount),
      detail: `${p.is_refund ? 'refund' : p.payment_method} · ${p.status} · ${jobNameOf(ctx, p.job_id)}`,
      at: p.created_at,
    })),
  },
  onJob: paymentsOnJob,
};
