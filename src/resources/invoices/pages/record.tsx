import type { PageDeps } from '../../../platform/family';
import type { ServiceContext } from '../../../platform/service-context';
import { Page } from '../../../web/ui/layout';
import { Lines } from '../../../web/ui/lines';
import {
  Crumbs,
  DeletedJobNotice,
  JobLink,
  OfflineLinks,
  onDeletedJob,
} from '../../../web/ui/on-job';
import { Badge, Empty, Facts, money, pathOf, type Tone, text, when } from '../../../web/ui/parts';
import { recordPage } from '../../../web/ui/record-of';
import { contactName } from '../../contacts/api';
import { presentInvoice } from '../present';
import type { Invoice } from '../schema';

// Which statuses a badge shows as good news, as waiting on someone, or as trouble.
const TONE: Record<string, Tone> = {
  paid: 'ok',
  sent: 'warn',
  viewed: 'warn',
  partially_paid: 'warn',
  overdue: 'bad',
  void: 'bad',
  bad_debt: 'bad',
};

export const invoiceTone = (status: string): Tone => TONE[status];

// GET {app_url}/invoices/{id}: an invoice with its figures as GET shows them, its lines and the
// payments made against it; links to its PDF and, while it is out, its pay page.

const CAP = 100;

type InvoiceOut = ReturnType<typeof presentInvoice>;

interface Shown {
  ctx: ServiceContext;
  rec: Invoice;
}

/** Whom the invoice bills: a link to the contact's page, or a dash. */
function Bills({ ctx, rec }: Shown) {
  const contact = rec.contact_id === null ? undefined : ctx.ws.get('contacts', rec.contact_id);
  return contact ? <a href={`/contacts/${contact.id}`}>{contactName(contact)}</a> : <>—</>;
}

function Details({ ctx, rec, out }: Shown & { out: InvoiceOut }) {
  return (
    <Facts
      rows={[
        ['Title', text(out.title)],
        ['Job', <JobLink ctx={ctx} jobId={rec.job_id} />],
        ['Bills', <Bills ctx={ctx} rec={rec} />],
        ['Purpose', text(out.purpose)],
        [
          'Estimate',
          out.estimate_id ? <a href={`/estimates/${out.estimate_id}`}>the estimate</a> : '—',
        ],
        ['Subtotal', money(out.subtotal)],
        ['Discount', money(out.discount_amount)],
        ['Tax', money(out.tax_amount)],
        ['Late fee', money(out.late_fee_amount)],
        ['Total', money(out.total_amount)],
        ['Paid', money(out.amount_paid)],
        ['Balance due', money(out.balance_due)],
        ['Issued', text(out.issue_date)],
        ['Due', text(out.due_date)],
        ['Sent', when(out.sent_at)],
        ['Paid in full', when(out.paid_at)],
        ['Id', <code>{out.id}</code>],
      ]}
    />
  );
}

/** The PDF and, while the invoice is out, the homeowner's pay page. */
function Links({ out }: { out: InvoiceOut }) {
  return (
    <p>
      {out.pdf_url ? <a href={pathOf(out.pdf_url)}>PDF</a> : null}
      {out.payment_url ? (
        <>
          {' · '}
          <a href={pathOf(out.payment_url)}>The homeowner's pay page</a>
        </>
      ) : null}
    </p>
  );
}

function Payments({ ctx, rec }: Shown) {
  const payments = ctx.ws.scan('payments', { where: (p) => p.invoice_id === rec.id, limit: CAP });
  return (
    <>
      <h2>Payments</h2>
      {payments.items.length === 0 ? <Empty what="payments against it" /> : null}
      <ul>
        {payments.items.map((p) => (
          <li>
            <a href={`/payments/${p.id}`}>
              {money(p.amount)} {p.is_refund ? 'refund' : p.payment_method}
            </a>{' '}
            <span class="muted">
              {p.status} · {when(p.created_at)}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

export function invoicePage(deps: PageDeps) {
  return recordPage(deps, '/invoices/:id', 'invoices', 'invoice', (c, { ctx, rec }) => {
    const out = presentInvoice(ctx, rec);
    const title = `Invoice ${out.invoice_number ?? ''}`.trim();
    return c.html(
      <Page title={title}>
        <Crumbs ctx={ctx} kind="Invoice" />
        <h1>
          {title} <Badge tone={invoiceTone(out.status)}>{out.status}</Badge>
        </h1>
        <DeletedJobNotice ctx={ctx} jobId={rec.job_id} />
        <div class="card">
          <Details ctx={ctx} rec={rec} out={out} />
          {onDeletedJob(ctx, rec.job_id) ? (
            <OfflineLinks what="The PDF and the pay page are" />
          ) : (
            <Links out={out} />
          )}
        </div>
        <h2>Lines</h2>
        <Lines lines={rec.line_items} />
        <Payments ctx={ctx} rec={rec} />
      </Page>,
    );
  });
}
