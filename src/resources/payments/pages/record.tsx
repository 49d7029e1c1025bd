import type { PageDeps } from '../../../platform/family';
import type { ServiceContext } from '../../../platform/service-context';
import { Page } from '../../../web/ui/layout';
import { Crumbs, DeletedJobNotice, JobLink } from '../../../web/ui/on-job';
import { Facts, money, text, when } from '../../../web/ui/parts';
import { recordPage } from '../../../web/ui/record-of';
import { presentPayment } from '../present';
import type { Payment } from '../schema';

// GET {app_url}/payments/{id}: a payment (or a refund) with the job, invoice and payment it
// belongs to, and the refunds made of it.

type PaymentOut = ReturnType<typeof presentPayment>;

interface Shown {
  ctx: ServiceContext;
  rec: Payment;
}

function Details({ ctx, rec, out }: Shown & { out: PaymentOut }) {
  return (
    <Facts
      rows={[
        ['Job', <JobLink ctx={ctx} jobId={rec.job_id} />],
        ['Invoice', out.invoice_id ? <a href={`/invoices/${out.invoice_id}`}>the invoice</a> : '—'],
        [
          'Refund of',
          out.refund_of_payment_id ? (
            <a href={`/payments/${out.refund_of_payment_id}`}>the payment</a>
          ) : (
            '—'
          ),
        ],
        ['Amount', money(out.amount)],
        ['Type', out.payment_type],
        ['Payer', out.payer_type],
        ['Method', `${out.payment_method}${out.online ? ' (online, on the pay page)' : ''}`],
        ['Status', out.status],
        ['Check number', text(out.check_number)],
        ['Received', text(out.date_received)],
        ['Deposited', text(out.date_deposited)],
        ['Notes', text(out.notes)],
        ['Recorded', when(out.created_at)],
        ['Id', <code>{out.id}</code>],
      ]}
    />
  );
}

/** The refunds made of this payment; nothing at all when there are none. */
function Refunds({ ctx, rec }: Shown) {
  const refunds = ctx.ws.scan('payments', {
    where: (p) => p.refund_of_payment_id === rec.id,
    limit: 100,
  }).items;
  if (!refunds.length) {
    return null;
  }
  return (
    <>
      <h2>Refunds</h2>
      <ul>
        {refunds.map((r) => (
          <li>
            <a href={`/payments/${r.id}`}>{money(r.amount)}</a>{' '}
            <span class="muted">{when(r.created_at)}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

export function paymentPage(deps: PageDeps) {
  return recordPage(deps, '/payments/:id', 'payments', 'payment', (c, { ctx, rec }) => {
    const out = presentPayment(ctx, rec);
    const title = `${out.is_refund ? 'Refund' : 'Payment'} of ${money(Math.abs(out.amount))}`;
    return c.html(
      <Page title={title}>
        <Crumbs ctx={ctx} kind={out.is_refund ? 'Refund' : 'Payment'} />
        <h1>{title}</h1>
        <DeletedJobNotice ctx={ctx} jobId={rec.job_id} />
        <div class="card">
          <Details ctx={ctx} rec={rec} out={out} />
        </div>
        <Refunds ctx={ctx} rec={rec} />
      </Page>,
    );
  });
}
