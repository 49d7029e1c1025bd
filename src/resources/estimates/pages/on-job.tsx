import type { OnJobPage } from '../../../platform/family';
import { momentAt, onJob } from '../../../web/ui/on-job';
import { Badge, Empty, money, pathOf, text, when } from '../../../web/ui/parts';
import { presentEstimate } from '../present';
import { estimateTone } from './record';

// A job's estimates in its money section, and their drafting, sending and signing on its timeline.
export const estimatesOnJob: OnJobPage = {
  place: 'money',
  id: 'estimates',
  title: 'Estimates',
  show(ctx, job) {
    const list = onJob(ctx, 'estimates', job.id);
    const items = list.items.map((e) => presentEstimate(ctx, e));
    const part =
      items.length === 0 ? (
        <Empty what="estimates" />
      ) : (
        <table>
          <thead>
            <tr>
              <th>Number</th>
              <th>Title</th>
              <th>Status</th>
              <th class="money">Total</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {items.map((e) => (
              <tr>
                <td>
                  <a href={pathOf(e.url)}>{text(e.estimate_number)}</a>
                </td>
                <td>{text(e.title)}</td>
                <td>
                  <Badge tone={estimateTone(e.status)}>{text(e.status)}</Badge>
                </td>
                <td class="money">{money(e.total)}</td>
                <td>{when(e.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      );
    const moments = list.items.flatMap((e) => {
      const name = `Estimate ${e.estimate_number ?? ''}`.trim();
      const href = `/estimates/${e.id}`;
      return [
        ...momentAt(e.created_at, `${name} drafted`, href),
        ...momentAt(e.sent_at, `${name} sent for signature`, href),
        ...momentAt(e.signed_at, `${name} signed by ${e.signer_name ?? 'the homeowner'}`, href),
      ];
    });
    return { part, moments };
  },
};
