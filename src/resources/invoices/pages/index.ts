import { type FamilyPages, listOf } from '../../../platform/family';
import { jobNameOf } from '../../../web/ui/on-job';
import { money, text } from '../../../web/ui/parts';
import { pagesOf } from '../../../web/ui/routes';
import { invoicesOnJob } from './on-job';
import { invoicePdf } from './pdf';
import { invoicesOnPortal } from './portal';
import { invoicePage } from './record';

export const invoicePages: FamilyPages = {
  routes: pagesOf(invoicePage, invoicePdf),
  workspace: {
    id: 'invoices',
    title: 'Invoices',
    list: listOf('invoices', (ctx) => (i) => ({
      href: `/invoices/${i.id}`,
      label: text(i.invoice_number),
      detail: `${i.status} · ${money(i.total_amount)} · ${jobNameOf(ctx, i.job_id)}`,
      at: i.created_at,
    })),
  },
  onJob: invoicesOnJob,
  onPortal: invoicesOnPortal,
};
