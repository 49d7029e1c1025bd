import { DAY, iso, type Profile, type Seeding, type SeedStep } from '../../platform/family';
import { addDays, centralDate, centralDayEnd } from '../common/central-time';
import { divRound } from '../common/cents';
import type { Line } from '../common/line-items';
import { signedOn } from '../estimates/seed';
import type { Job } from '../jobs/api';
import { invoiceCents, withPaid } from '../money/api';
import { INVOICE_STATUSES, type Invoice, type InvoiceStatus, NEW_INVOICE } from './schema';

/** The share of jobs billed. */
const SHARE: Record<Profile, number> = { empty: 0, small: 0.35, demo: 0.65, large: 0.3 };

// The first records of a workspace take every status in turn, in the order of the spec.
const STATUSES = INVOICE_STATUSES;
const WEIGHTS: Record<InvoiceStatus, number> = {
  draft: 1,
  sent: 2,
  viewed: 2,
  partially_paid: 2,
  paid: 6,
  overdue: 1,
  void: 1,
  bad_debt: 0.3,
};

/** What the payments seeded on an invoice add up to, and whether one was overpaid and refunded. */
export interface Paid {
  invoice: Invoice;
  cents: bigint;
  /** When the money came (the last payment). */
  atMs: number;
}

/** Per workspace and job: the invoices with money on them, for the payments step. */
export const paidOn = new WeakMap<Seeding, Map<string, Paid[]>>();
const made = new WeakMap<Seeding, number>();

/** A job's bill: a purpose and its lines, as a contractor would write it. */
function billFor(
  s: Seeding,
  job: Job,
): { purpose: Invoice['purpose']; title: string; lines: Line[]; tax: number | null } | undefined {
  const f = s.faker;
  const line = (name: string, unit_price: number, taxable = false): Line => ({
    name,
    quantity: 1,
    unit_price,
    taxable,
  });
  if (job.job_type === 'insurance') {
    if (job.supplements_amount !== null && f.datatype.boolean()) {
      return {
        purpose: 'supplement',
        title: `Supplement${job.claim_number ? ` · claim ${job.claim_number}` : ''}`,
        lines: [
          line(
            'Approved supplement: ice & water shield, drip edge, code upgrades',
            job.supplements_amount,
          ),
        ],
        tax: null,
      };
    }
    if (job.deductible !== null) {
      return {
        purpose: 'deductible',
        title: 'Homeowner deductible',
        lines: [
          line(
            `Insurance deductible${job.insurance_company ? ` (${job.insurance_company})` : ''}`,
            job.deductible,
          ),
        ],
        tax: null,
      };
    }
    return undefined;
  }
  if (job.final_amount !== null) {
    return {
      purpose: 'contract',
      title: 'Roof replacement per signed contract',
      lines: [line('Roof replacement per signed contract', job.final_amount)],
      tax: null,
    };
  }
  // A retail add-on, taxed: materials are taxable, labor is not.
  return {
    purpose: 'other',
    title: 'Gutter guards and attic ventilation',
    lines: [
      {
        name: 'Gutter guard (linear ft)',
        quantity: f.number.int({ min: 90, max: 220 }),
        unit_price: 7.85,
        taxable: true,
      },
      { name: 'Solar attic fan', quantity: 1, unit_price: 489.99, taxable: true },
      line('Installation labor', f.number.int({ min: 3, max: 9 }) * 95),
    ],
    tax: 8.25,
  };
}

export const invoiceSeed: SeedStep = {
  finish: (s) => numberInvoices(s),
  job(s, job) {
    if (!s.showcase.has(job.id) && s.faker.number.float() >= SHARE[s.profile]) {
      return;
    }
    const bill = billFor(s, job);
    if (!bill) {
      return;
    }
    const n = made.get(s) ?? 0;
    const status =
      n < STATUSES.length
        ? (STATUSES[n] as InvoiceStatus)
        : s.faker.helpers.weightedArrayElement(
            STATUSES.map((value) => ({ value, weight: WEIGHTS[value] })),
          );
    // A void supplement would leave supplements_amount counting it (decisions.md, Invoices).
    const seeded =
      status === 'void' && bill.purpose === 'supplement'
        ? undefined
        : seedInvoice(s, job, bill, status);
    if (!seeded) {
      return;
    }
    made.set(s, n + 1);
    s.add('invoices', seeded.invoice);
    if (seeded.cents > 0n) {
      const byJob = paidOn.get(s) ?? new Map<string, Paid[]>();
      byJob.set(job.id, [...(byJob.get(job.id) ?? []), seeded]);
      paidOn.set(s, byJob);
    }
  },
};

/** How much of `total` a status has had paid (cents). */
function paidFor(s: Seeding, status: InvoiceStatus, total: bigint): bigint {
  const part = (min: number, max: number) =>
    divRound(total * BigInt(s.faker.number.int({ min, max })), 100n);
  switch (status) {
    case 'paid':
      return total;
    case 'partially_paid':
      return part(25, 75);
    case 'overdue':
    case 'bad_debt':
      return s.faker.datatype.boolean() ? part(10, 40) : 0n;
    default:
      return 0n;
  }
}

function seedInvoice(
  s: Seeding,
  job: Job,
  bill: NonNullable<ReturnType<typeof billFor>>,
  status: InvoiceStatus,
): Paid | undefined {
  const f = s.faker;
  const jobMs = Date.parse(job.created_at);
  const today = centralDate(s.until);
  // Out and not yet due: issued within the last two weeks, due in 30 days. Overdue or written
  // off: due 15 days after issue, passed before today.
  const late = status === 'overdue' || status === 'bad_debt';
  const open = ['sent', 'viewed', 'partially_paid'].includes(status);
  const from = open ? Math.max(jobMs, s.until - 14 * DAY) : jobMs;
  const to = late ? s.until - 18 * DAY : s.until - DAY / 2;
  if (to <= from) {
    return undefined;
  }
  const created = s.when(from, to);
  const issue = centralDate(created);
  const due = addDays(issue, late ? 15 : 30);
  const out = status !== 'draft' && !(status === 'void' && f.datatype.boolean());
  const sentMs = out
    ? s.when(created, late ? Math.min(to, centralDayEnd(due)) : s.until - DAY / 4)
    : null;
  const viewedMs =
    sentMs !== null && (status === 'viewed' || (status !== 'sent' && f.datatype.boolean()))
      ? s.when(sentMs, late ? Math.min(to, centralDayEnd(due)) : s.until - DAY / 8)
      : null;
  const overdueMs = late ? centralDayEnd(due) + 1 : null;
  const terms = {
    line_items: bill.lines,
    tax_rate: bill.tax,
    discount_type: null,
    discount_value: null,
  };
  const total = invoiceCents(terms).total;
  const cents = paidFor(s, status, total);
  const lastTouch = Math.max(created, sentMs ?? 0, viewedMs ?? 0, overdueMs ?? 0);
  const atMs = cents > 0n ? s.when(lastTouch, s.until - DAY / 24) : lastTouch;
  const estimate = signedOn.get(s)?.get(job.id);
  const base: Invoice = {
    ...NEW_INVOICE,
    id: f.string.uuid(),
    invoice_number: '',
    title: bill.title,
    status: status === 'void' || status === 'bad_debt' ? status : 'draft',
    purpose: bill.purpose,
    issue_date: issue,
    due_date: due,
    sent_at: sentMs === null ? null : iso(sentMs),
    first_viewed_at: viewedMs === null ? null : iso(viewedMs),
    job_id: job.id,
    contact_id: job.homeowner_id,
    estimate_id: estimate && Date.parse(estimate.created_at) <= created ? estimate.id : null,
    ...terms,
    terms: 'Due on receipt of insurance funds or by the due date, whichever comes first.',
    overdue_at: overdueMs === null ? null : iso(overdueMs),
    written_off_at: status === 'bad_debt' ? iso(lastTouch) : null,
    created_at: iso(created),
    updated_at: iso(atMs),
  };
  const invoice = withPaid(base, cents, iso(atMs));
  if (invoice.status !== status || invoice.issue_date === null || invoice.issue_date > today) {
    return undefined; // the draw cannot give this status (a total of 0): the next job tries it
  }
  return { invoice, cents, atMs };
}

/** Numbers in creation order, and the counter after them. */
function numberInvoices(s: Seeding): void {
  const all = [...s.all('invoices')].sort((a, b) => a.created_at.localeCompare(b.created_at));
  all.forEach((inv, i) => {
    (inv as { invoice_number: string | null }).invoice_number = `INV-${1001 + i}`;
  });
  if (all.length > 0) {
    s.add('counters', { id: 'invoice_number', value: 1000 + all.length });
  }
}
