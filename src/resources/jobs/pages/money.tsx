import { money } from '../../../web/ui/parts';
import type { JobView } from './data';

// The money tab of a job: its figures as GET /v1/jobs/{id} works them out, then what the families
// of its money (estimates, invoices, payments) show of their records on it.

export function JobMoney({ view }: { view: JobView }) {
  return (
    <section id="money">
      <h2>Money</h2>
      <Figures out={view.out} />
      {view.parts
        .filter((p) => p.on.place === 'money')
        .map((p) => (
          <>
            <h3>{p.on.title}</h3>
            {p.part}
          </>
        ))}
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
