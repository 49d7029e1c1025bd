import type { OnJobPage } from '../../../platform/family';
import { momentAt, onJob } from '../../../web/ui/on-job';
import { Badge, Empty, money, pathOf, text } from '../../../web/ui/parts';
import { presentInvoice } from '../present';
import { invoiceTone } from './record';

// A job's invoices in its money section, and their drafting, sending and payment on its timeline.
export const invoicesOnJob: OnJobPage = {
  place: 'money',
  id: 'invoices',
  title: 'Invoices',
  show(ctx, job) {
    const list = onJob(ctx, 'invoices', job.id);
    const items = list.items.map((i) => presentInvoice(ctx, i));
    const part =
      items.length === 0 ? (
        <Empty what="invoices" />
      ) : (
        <table>
          <thead>
            <tr>
              <th>Number</th>
              <th>Purpose</th>
              <th>Status</th>
              <th class="money">Total</th>
              <th class="money">Paid</th>
              <th class="money">Balance</th>
            </tr>
          </thead>
          <tbody>
            {items.map((i) => (
              <tr>
                <td>
                  <a href={pathOf(i.url)}>{text(i.invoice_number)}</a>
                </td>
                <td>{text(i.purpose)}</td>
                <td>
                  <Badge tone={invoiceTone(i.status)}>{i.status}</Badge>
                </td>
                <td class="money">{money(i.total_amount)}</td>
                <td class="money">{money(i.amount_paid)}</td>
                <td class="money">{money(i.balance_due)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      );
    const moments = list.items.flatMap((i) => {
      const name = `Invoice ${i.invoice_number ?? ''}`.trim();
      const href = `/invoices/${i.id}`;
      return [
        ...momentAt(i.created_at, `${name} drafted`, href),
        ...momentAt(i.sent_at, `${name} sent`, href),
        ...momentAt(i.paid_at, `${name} paid`, href),
      ];
    });
    return { part, moments };
  },
};
