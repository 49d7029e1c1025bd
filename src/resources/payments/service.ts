import { ApiError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { type ListQuery, timeFilter } from '../../platform/paging';
import type { ServiceContext } from '../../platform/service-context';
import type { Position, TxScope, WorkspaceCollections } from '../../store';
import { centralDate } from '../common/central-time';
import { dollars, toCent, toCents } from '../common/cents';
import { jobIsLive, requireJob } from '../common/job';
import { isReceived, settle, syncReceived } from '../money/api';
import type { Payment, PaymentCreate, PaymentListQuery, PaymentStatus } from './schema';

/** After a payment is written: its job's money in hand and its invoice follow, in its transaction. */
function moneyMoved(tx: TxScope<WorkspaceCollections>, payment: Payment, now: string): void {
  const payments = tx.all('payments'); // read once for both sums
  syncReceived(tx, payment.job_id, now, payments);
  if (payment.invoice_id !== null) {
    settle(tx, payment.invoice_id, now, payments);
  }
}

export function getPayment(ctx: ServiceContext, id: string): Payment {
  const payment = ctx.ws.get('payments', id);
  if (!payment || !jobIsLive(ctx, payment.job_id)) {
    throw new ApiError('not_found', 'no such payment');
  }
  return payment;
}

const today = (ctx: ServiceContext) => centralDate(ctx.clock.nowMs());

/**
 * spec, POST /payments: a payment on a job, applied to one of its invoices when `invoice_id`
 * names it (never guessed). The job's money and the invoice's balance and status follow, in the
 * same transaction. `online`: made on the homeowner's pay page (spec, Payment: "paid through the
 * online payment page"), which the API itself never records.
 */
export function createPayment(
  ctx: ServiceContext,
  input: PaymentCreate,
  how: { online?: boolean } = {},
): Payment {
  // Kept to the cent, an amount under half a cent would be recorded as a payment of 0, which the
  // spec refuses ("amount: number greater than 0").
  if (toCents(input.amount) <= 0n) {
    throw new ApiError('invalid_request', 'amount must be at least 0.01', 'amount');
  }
  const job = requireJob(ctx, input.job_id, 'job_id');
  if (input.invoice_id !== undefined) {
    const invoice = ctx.ws.get('invoices', input.invoice_id);
    if (!invoice || invoice.job_id !== job.id) {
      throw new ApiError(
        'invalid_request',
        'invoice_id is not an invoice on this job',
        'invoice_id',
      );
    }
    if (invoice.status === 'void') {
      throw new ApiError(
        'invalid_request',
        'invoice_id is a void invoice: it takes no payments',
        'invoice_id',
      );
    }
  }
  const status = input.status ?? 'received';
  const now = ctx.clock.iso();
  return ctx.ws.transaction((tx) => {
    const payment = tx.put('payments', {
      id: newId(),
      object: 'payment',
      job_id: job.id,
      invoice_id: input.invoice_id ?? null,
      amount: toCent(input.amount),
      payment_type: input.payment_type ?? 'other',
      payer_type: input.payer_type ?? 'homeowner',
      payment_method: input.payment_method ?? 'check',
      status,
      check_number: input.check_number || null,
      // spec, POST /payments: "date_received (date; default today in US Central time)", whatever
      // the status: an expected payment is dated the day it was recorded, until it comes in.
      date_received: input.date_received ?? today(ctx),
      date_deposited: input.date_deposited ?? null,
      notes: input.notes || null,
      is_refund: false,
      refund_of_payment_id: null,
      online: how.online ?? false,
      created_at: now,
      updated_at: now,
    });
    moneyMoved(tx, payment, now);
    return payment;
  });
}

/** What is left to refund of a payment, in cents: its amount less the refunds of it so far. */
function refundableCents(ctx: ServiceContext, payment: Payment): bigint {
  let left = toCents(payment.amount);
  for (const p of ctx.ws.values('payments')) {
    if (p.refund_of_payment_id === payment.id) {
      left += toCents(p.amount); // refunds are negative
    }
  }
  return left;
}

/**
 * DESIGN.md, control API: a refund is its own payment, negative, of money received; it defaults
 * to what is left to refund and never goes beyond it.
 */
export function refundPayment(
  ctx: ServiceContext,
  id: string,
  input: { amount?: number | undefined },
): Payment {
  const original = getPayment(ctx, id);
  if (original.is_refund) {
    throw new ApiError('conflict', 'a refund cannot be refunded');
  }
  if (!isReceived(original)) {
    throw new ApiError('conflict', 'an expected payment has not been received: nothing to refund');
  }
  const left = refundableCents(ctx, original);
  const cents = input.amount === undefined ? left : toCents(input.amount);
  if (left <= 0n) {
    throw new ApiError('conflict', 'the payment is refunded in full already');
  }
  // Kept to the cent, an amount under half a cent would be a refund of 0.
  if (cents <= 0n) {
    throw new ApiError('invalid_request', 'amount must be at least 0.01', 'amount');
  }
  if (cents > left) {
    throw new ApiError('invalid_request', `at most ${dollars(left)} is left to refund`, 'amount');
  }
  const now = ctx.clock.iso();
  return ctx.ws.transaction((tx) => {
    const refund = tx.put('payments', {
      ...original,
      id: newId(),
      amount: dollars(-cents),
      status: 'received',
      check_number: null,
      date_received: today(ctx),
      date_deposited: null,
      notes: null,
      is_refund: true,
      refund_of_payment_id: original.id,
      online: false,
      created_at: now,
      updated_at: now,
    });
    moneyMoved(tx, refund, now);
    return refund;
  });
}

/**
 * DESIGN.md, control API: a payment's status moves (any to any: a check can bounce back to
 * expected). `date_received`, when sent, is the day the money came in; otherwise a payment keeps
 * the date it was recorded with (spec, POST /payments: default today), and one without a date
 * (written by an older svc) is dated today as it comes in. Deposited today, where it has no date.
 */
export function setPaymentStatus(
  ctx: ServiceContext,
  id: string,
  move: { status: PaymentStatus; date_received?: string | undefined },
): Payment {
  const payment = getPayment(ctx, id);
  const { status } = move;
  const dated = move.date_received ?? payment.date_received;
  if (payment.status === status && dated === payment.date_received) {
    return payment;
  }
  // Money given back was money received: with refunds against it, a payment cannot go back to
  // expected (the refunds would take the job and invoice below what they ever received).
  if (status === 'expected' && refundableCents(ctx, payment) !== toCents(payment.amount)) {
    throw new ApiError('conflict', 'refunds were made of this payment: it was received');
  }
  const now = ctx.clock.iso();
  const next: Payment = { ...payment, status, date_received: dated, updated_at: now };
  if (status !== 'expected' && next.date_received === null) {
    next.date_received = today(ctx);
  }
  if (status === 'deposited' && next.date_deposited === null) {
    next.date_deposited = today(ctx);
  }
  return ctx.ws.transaction((tx) => {
    const out = tx.put('payments', next);
    moneyMoved(tx, out, now);
    return out;
  });
}

export function listPayments(
  ctx: ServiceContext,
  q: ListQuery & Partial<Omit<PaymentListQuery, 'limit' | 'cursor'>>,
  after: Position | undefined,
) {
  const inTime = timeFilter(q);
  return ctx.ws.scan('payments', {
    after,
    on: q.job_id === undefined ? undefined : { field: 'job_id', value: q.job_id },
    limit: q.limit,
    where: (p) =>
      inTime(p) &&
      (q.job_id === undefined || p.job_id === q.job_id) &&
      (q.invoice_id === undefined || p.invoice_id === q.invoice_id) &&
      (q.payment_type === undefined || p.payment_type === q.payment_type) &&
      jobIsLive(ctx, p.job_id),
  });
}
