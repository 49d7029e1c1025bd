import type { OnPortal } from '../../../platform/family';
import { INVOICE_WORDS, localPath, money } from '../../../web/homeowner/format';
import { presentInvoice } from '../present';

// The invoices sent to the homeowner, newest first, each with Pay while it is due, and its PDF.
export const invoicesOnPortal: OnPortal = {
  draw(ctx, job) {
    const invoices = [...ctx.ws.values('invoices')]
      // Billed to the homeowner: an invoice of the job billed to someone else is not theirs.
      .filter(
        (i) =>
          i.job_id === job.id &&
          i.sent_at !== null &&
          i.status !== 'void' &&
          (i.contact_id === null || i.contact_id === job.homeowner_id),
      )
      .sort((a, b) => (b.sent_at ?? '').localeCompare(a.sent_at ?? ''))
      .map((i) => presentInvoice(ctx, i));
    return (
      <>
        <h2>Invoices</h2>
        {invoices.length === 0 ? (
          <p class="muted">None sent to you yet.</p>
        ) : (
          <table>
            <tbody>
              {invoices.map((i) => (
                <tr>
                  <td>
                    {i.title ?? `Invoice ${i.invoice_number ?? ''}`}
                    {i.title ? <div class="muted mono">{i.invoice_number}</div> : null}
                  </td>
                  <td>{INVOICE_WORDS[i.status] ?? i.status}</td>
                  <td class="money">
                    {money(i.total_amount)}
                    {i.balance_due > 0 ? <div class="muted">{money(i.balance_due)} due</div> : null}
                  </td>
                  <td>
                    {i.payment_url ? (
                      <a class="button primary" href={localPath(i.payment_url)}>
                        Pay
                      </a>
                    ) : null}{' '}
                    <a href={localPath(i.pdf_url)}>PDF</a>
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
