import type { OnPortal } from '../../../platform/family';
import { ESTIMATE_WORDS, localPath, money } from '../../../web/homeowner/format';
import { presentEstimate } from '../present';

// The estimates sent to the homeowner, newest first, each with its page and its PDF.
export const estimatesOnPortal: OnPortal = {
  draw(ctx, job) {
    const estimates = [...ctx.ws.values('estimates')]
      .filter((e) => e.job_id === job.id && e.sent_at !== null)
      .sort((a, b) => (b.sent_at ?? '').localeCompare(a.sent_at ?? ''))
      .map((e) => presentEstimate(ctx, e));
    return (
      <>
        <h2>Estimates</h2>
        {estimates.length === 0 ? (
          <p class="muted">None sent to you yet.</p>
        ) : (
          <table>
            <tbody>
              {estimates.map((e) => (
                <tr>
                  <td>
                    <a href={localPath(e.view_url)}>{e.title ?? e.estimate_number}</a>
                    <div class="muted mono">{e.estimate_number}</div>
                  </td>
                  <td>{ESTIMATE_WORDS[e.status ?? ''] ?? e.status}</td>
                  <td class="money">{money(e.total)}</td>
                  <td>
                    <a href={localPath(e.signed_pdf_url ?? e.pdf_url)}>PDF</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </>
    );
  },
};
