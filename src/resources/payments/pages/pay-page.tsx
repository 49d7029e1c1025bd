import { Lines, PartyFacts } from '../../../web/homeowner/document-parts';
import type { InvoiceDoc } from '../../../web/homeowner/documents';
import { day, INVOICE_WORDS, money } from '../../../web/homeowner/format';
import { Page } from '../../../web/ui/layout';
import type { Invoice } from '../../invoices/api';
import type { Payment } from '../schema';

export interface PayView {
  rec: Invoice;
  doc: InvoiceDoc;
  /** Why it cannot be paid here; undefined shows the form. */
  why?: string | undefined;
  token: string;
  error?: string | undefined;
  notice?: string | undefined;
  /** The payment just made on this page, for the thank-you. */
  receipt?: Payment | undefined;
  filled?: { amount?: string | undefined; card_name?: string | undefined } | undefined;
}

function Totals({ d }: { d: InvoiceDoc }) {
  return (
    <dl class="facts totals">
      <dt>Subtotal</dt>
      <dd class="money">{money(d.subtotal)}</dd>
      {d.discount !== null ? (
        <>
          <dt>Discount</dt>
          <dd class="money">{money(-d.discount)}</dd>
        </>
      ) : null}
      {d.tax !== null ? (
        <>
          <dt>Tax ({d.taxRate ?? 0}%)</dt>
          <dd class="money">{money(d.tax)}</dd>
        </>
      ) : null}
      <dt>Total</dt>
      <dd class="money">{money(d.total)}</dd>
      <dt>Paid</dt>
      <dd class="money">{money(d.paid)}</dd>
      <dt>
        <strong>Balance due</strong>
      </dt>
      <dd class="money">
        <strong>{money(d.balance)}</strong>
      </dd>
    </dl>
  );
}

function PayForm({ v }: { v: PayView }) {
  const partial = v.rec.allow_partial_payments;
  return (
    <form method="post" action={`/pay/${v.rec.id}`} class="card">
      <input type="hidden" name="page_token" value={v.token} />
      <input type="hidden" name="paid_before" value={String(v.rec.amount_paid)} />
      <h2>Pay by card</h2>
      <label>
        Amount (USD)
        <input
          type="text"
          name="amount"
          inputmode="decimal"
          required
          readonly={!partial}
          value={v.filled?.amount ?? v.rec.balance_due.toFixed(2)}
        />
      </label>
      {partial ? null : <p class="muted">This invoice is paid in full, in one payment.</p>}
      <label>
        Name on card
        <input
          type="text"
          name="card_name"
          required
          maxlength={200}
          autocomplete="cc-name"
          value={v.filled?.card_name ?? ''}
        />
      </label>
      <p class="muted">
        This is svc, a local mock of the service: no card is asked for and nothing is charged. The
        payment is recorded as an online card payment.
      </p>
      <button type="submit" class="primary">
        Pay
      </button>
    </form>
  );
}

export function PayPage({ v }: { v: PayView }) {
  const d = v.doc;
  return (
    <Page
      title={`Invoice ${d.number} · ${d.company}`}
      area="homeowner"
      styles={['/_app/homeowner.css']}
    >
      <p class="muted">{d.company}</p>
      <h1>{d.title ?? `Invoice ${d.number}`}</h1>
      {v.receipt ? (
        <div class="notice ok">
          Thank you: your payment of <strong>{money(v.receipt.amount)}</strong> was received on{' '}
          {day(v.receipt.date_received)}.
        </div>
      ) : null}
      {v.notice ? <div class="notice">{v.notice}</div> : null}
      {v.error ? <div class="notice bad">{v.error}</div> : null}
      {v.why ? <div class="notice">{v.why}</div> : null}
      <div class="card">
        <PartyFacts party={d} number={d.number} label="Invoice" />
        <p>
          <span class="badge">{INVOICE_WORDS[v.rec.status] ?? v.rec.status}</span>{' '}
          <span class="muted">
            Issued {day(d.issueDate)}
            {d.dueDate ? `, due ${day(d.dueDate)}` : ''}
          </span>
        </p>
      </div>
      <Lines lines={d.lines} />
      <Totals d={d} />
      {d.terms ? (
        <>
          <h2>Terms</h2>
          <p>{d.terms}</p>
        </>
      ) : null}
      {d.notes ? (
        <>
          <h2>Notes</h2>
          <p>{d.notes}</p>
        </>
      ) : null}
      {v.why ? null : <PayForm v={v} />}
      <p>
        <a href={`/invoices/${v.rec.id}/pdf`}>Download as PDF</a>
      </p>
    </Page>
  );
}
