import type { OnJobPage } from '../../../platform/family';
import { momentAt, onJob } from '../../../web/ui/on-job';
import { Empty, money, when } from '../../../web/ui/parts';
import { presentPayment } from '../present';

// A job's payments and refunds in its money section and on its timeline.
export const paymentsOnJob: OnJobPage = {
  place: 'money',
  id: 'payments',
  title: 'Payments',
  show(ctx, job) {
    const list = onJob(ctx, 'payments', job.id);
    const items = list.items.map((p) => presentPayment(ctx, p));
    const part =
      items.length === 0 ? (
        <Empty what="payments" />
      ) : (
        <table>
          <thead>
            <tr>
              <th>Recorded</th>
              <th>Type</th>
              <th>Payer</th>
              <th>Method</th>
              <th>Status</th>
              <th class="money">Amount</th>
            </tr>
          </thead>
          <tbody>
            {items.map((p) => (
              <tr>
                <td>
                  <a href={`/payments/${p.id}`}>{when(p.created_at)}</a>
                </td>
                <td>{p.is_refund ? 'refund' : p.payment_type}</td>
                <td>{p.payer_type}</td>
                <td>
                  {p.payment_method}
                  {p.online ? ' (online)' : ''}
                </td>
                <td>{p.status}</td>
                <td class="money">{money(p.amount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      );
    const moments = list.items.flatMap((p) => {
      const what = p.is_refund ? `Refund of ${money(-p.amount)}` : `Payment of ${money(p.amount)}`;
      return momentAt(p.created_at, `${what} recorded (${p.status})`, `/payments/${p.id}`);
    });
    return { part, moments };
  },
};
