import type { JobView } from './job-data';
import { Badge, Empty, money, pathOf, text, when } from './parts';
import { estimateTone, invoiceTone } from './tones';

// The money tab of a job: its figures as GET /v1/jobs/{id} works them out, then the estimates,
// invoices and payments on it.

export function JobMoney({ view }: { view: JobView }) {
  return (
    <section id="money">
      <h2>Money</h2>
      <Figures out={view.out} />
      <h3>Estimates</h3>
      <Estimates items={view.estimates.items} />
      <h3>Invoices</h3>
      <Invoices items={view.invoices.items} />
      <h3>Payments</h3>
      <Payments items={view.payments.items} />
    </section>
  );
}

function Figures({ out }: { out: JobView['out'] }) {
  return (
    <div class="grid">
      <div class="card">
        <div class="muted">Total job value</div>
        <div class="money">{money(out.total_job_value)}</div>
      </div>
      <div class="card">
        <div class="muted">Received</div>
        <div class="money">{money(out.amount_received)}</div>
      </div>
      <div class="card">
        <div class="muted">Balance due</div>
        <div class="money" id="balance-due">
          {money(out.balance_due)}
        </div>
      </div>
    </div>
  );
}

function Estimates({ items }: { items: JobView['estimates']['items'] }) {
  return items.length === 0 ? (
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
}

function Invoices({ items }: { items: JobView['invoices']['items'] }) {
  return items.length === 0 ? (
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
}

function Payments({ items }: { items: JobView['payments']['items'] }) {
  return items.length === 0 ? (
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
}
