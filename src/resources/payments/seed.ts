import { DAY, iso, type Seeding, type SeedStep } from '../../platform/family';
import { centralDate } from '../common/central-time';
import { divRound, dollars, toCents } from '../common/cents';
import { type Paid, paidOn } from '../invoices/seed';
import type { Job } from '../jobs/api';
import { receivedCents } from '../money/api';
import type { Payment } from './schema';

// The money that came in on each job: what its invoices were paid (in one or two payments, now
// and then overpaid and the difference refunded), the insurer's ACV check on a claim, and the
// depreciation released once the job is done. The job's and invoices' figures are worked out
// from these, so they add up.

type Draft = Pick<Payment, 'amount' | 'payment_type' | 'payer_type' | 'payment_method' | 'status'> &
  Partial<
    Pick<Payment, 'invoice_id' | 'check_number' | 'is_refund' | 'refund_of_payment_id' | 'online'>
  >;

function put(s: Seeding, job: Job, atMs: number, draft: Draft): Payment {
  // Deposited the day after it came in, or today when it came in today: never in the future.
  const depositedMs = Math.min(atMs + DAY, s.until - 1);
  const payment: Payment = {
    id: s.faker.string.uuid(),
    object: 'payment',
    job_id: job.id,
    invoice_id: null,
    check_number: null,
    notes: null,
    is_refund: false,
    refund_of_payment_id: null,
    online: false,
    ...draft,
    date_received: centralDate(atMs), // spec, POST /payments: today, an expected one's too
    date_deposited: draft.status === 'deposited' ? centralDate(depositedMs) : null,
    created_at: iso(atMs),
    updated_at: iso(draft.status === 'deposited' ? depositedMs : atMs),
  };
  s.add('payments', payment);
  return payment;
}

const refunded = new WeakSet<Seeding>();

const checkNumber = (s: Seeding) => String(s.faker.number.int({ min: 1000, max: 99999 }));

function invoicePayments(s: Seeding, job: Job, paid: Paid): void {
  const f = s.faker;
  const { invoice, cents, atMs } = paid;
  const insurer = invoice.purpose === 'supplement';
  const method = insurer
    ? 'check'
    : f.helpers.arrayElement(['check', 'card', 'ach', 'financing'] as const);
  const common = {
    invoice_id: invoice.id,
    payment_type:
      ({ deductible: 'deductible', supplement: 'supplement', contract: 'retail' } as const)[
        invoice.purpose as 'deductible'
      ] ?? ('other' as const),
    payer_type: insurer ? ('insurance' as const) : ('homeowner' as const),
    payment_method: method,
  };
  const status = () => f.helpers.arrayElement(['received', 'deposited'] as const);
  const start = Date.parse(invoice.sent_at ?? invoice.created_at);
  const two = cents >= 100_000n && f.datatype.boolean();
  const first = two ? divRound(cents, 2n) : cents;
  // Now and then (and at least once in a workspace) the homeowner paid too much and got the
  // difference back.
  const refund = !two && (!refunded.has(s) || f.number.int({ min: 0, max: 6 }) === 0);
  const over = refund ? toCents(f.number.int({ min: 20, max: 150 })) : 0n;
  if (refund) {
    refunded.add(s);
  }
  const firstMs = two ? s.when(start, atMs) : atMs;
  const head = put(s, job, firstMs, {
    ...common,
    amount: dollars(first + over),
    status: status(),
    check_number: method === 'check' ? checkNumber(s) : null,
    online: method === 'card' && f.datatype.boolean(),
  });
  if (two) {
    put(s, job, atMs, {
      ...common,
      amount: dollars(cents - first),
      status: status(),
      check_number: method === 'check' ? checkNumber(s) : null,
    });
  }
  if (over > 0n) {
    put(s, job, Math.min(firstMs + DAY, s.until - 1), {
      ...common,
      payment_method: head.payment_method,
      amount: dollars(-over),
      status: 'received',
      is_refund: true,
      refund_of_payment_id: head.id,
    });
  }
}

/** The insurer's checks on a claim: ACV less the deductible, and depreciation once it is done. */
function claimPayments(s: Seeding, job: Job): void {
  const f = s.faker;
  if (job.rcv_amount === null || job.acv_amount === null) {
    return;
  }
  const created = Date.parse(job.created_at);
  const acvCheck = toCents(job.acv_amount) - toCents(job.deductible ?? 0);
  if (acvCheck > 0n && created < s.until - 3 * DAY) {
    const atMs = s.when(created + DAY, s.until - DAY);
    const statuses = job.mortgage_company
      ? (['sent_to_mortgage', 'endorsed', 'deposited'] as const)
      : (['expected', 'received', 'deposited', 'deposited'] as const);
    put(s, job, atMs, {
      amount: dollars(acvCheck),
      payment_type: 'acv',
      payer_type: 'insurance',
      payment_method: 'check',
      status: f.helpers.arrayElement(statuses),
      check_number: checkNumber(s),
    });
  }
  const depreciation = toCents(job.rcv_amount) - toCents(job.acv_amount);
  if (job.completed_at !== null && depreciation > 0n) {
    const done = Date.parse(job.completed_at);
    put(s, job, s.when(done, Math.max(done + 1, s.until - DAY / 24)), {
      amount: dollars(depreciation),
      payment_type: 'depreciation',
      payer_type: job.mortgage_company ? 'mortgage_company' : 'insurance',
      payment_method: 'check',
      status: 'received',
      check_number: checkNumber(s),
    });
  }
}

export const paymentSeed: SeedStep = {
  job(s, job) {
    const before = s.all('payments').length;
    claimPayments(s, job);
    for (const paid of paidOn.get(s)?.get(job.id) ?? []) {
      invoicePayments(s, job, paid);
    }
    // The job keeps its money in hand, as every payment change keeps it (money/job.ts).
    job.amount_received = dollars(receivedCents(s.all('payments').slice(before), job.id));
  },
};
