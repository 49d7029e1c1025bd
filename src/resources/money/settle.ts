import type { TxScope, WorkspaceCollections } from '../../store';
import { toCents } from '../common/cents';
import { invoiceFigures } from './invoice-totals';
import { isReceived } from './received';

type Ws = TxScope<WorkspaceCollections>;
type Invoice = WorkspaceCollections['invoices'];
type Payment = WorkspaceCollections['payments'];

/** Money in hand on an invoice, in cents: its payments no longer only expected, refunds netted. */
export function paidCents(payments: Iterable<Payment>, invoiceId: string): bigint {
  let paid = 0n;
  for (const p of payments) {
    if (p.invoice_id === invoiceId && isReceived(p)) {
      paid += toCents(p.amount);
    }
  }
  return paid;
}

/**
 * decisions.md, Invoices: the status money gives an invoice. Paid in full (something paid, and
 * nothing left) is paid; something paid is partially paid, unless it went overdue, which it stays
 * until paid in full; nothing paid is where it stood before money came (overdue, viewed, sent, or
 * draft). A void invoice stays void; one written off stays bad debt until paid in full.
 */
function statusFor(inv: Invoice, paid: bigint, balance: number): Invoice['status'] {
  if (inv.status === 'void') {
    return 'void';
  }
  if (paid > 0n && balance === 0) {
    return 'paid';
  }
  if (inv.status === 'bad_debt' || (inv.written_off_at ?? null) !== null) {
    return 'bad_debt';
  }
  const before =
    inv.overdue_at !== null
      ? 'overdue'
      : inv.first_viewed_at !== null
        ? 'viewed'
        : inv.sent_at !== null
          ? 'sent'
          : 'draft';
  return paid > 0n && before !== 'overdue' ? 'partially_paid' : before;
}

/** The invoice with its figures and status worked out again (after a change or a payment). */
export const settled = (ws: Ws, inv: Invoice, now: string): Invoice =>
  withPaid(inv, paidCents(ws.all('payments'), inv.id), now);

/** The invoice's figures and status, given what has been paid on it (in cents). */
export function withPaid(inv: Invoice, paid: bigint, now: string): Invoice {
  const figures = invoiceFigures(inv, paid);
  const status = statusFor(inv, paid, figures.balance_due);
  return {
    ...inv,
    ...figures,
    status,
    // decisions.md: paid_at is cleared when a refund reopens the invoice. A void invoice is
    // reopened by nothing, so voiding a paid one keeps when it was paid (its money stays too).
    paid_at: status === 'paid' ? (inv.paid_at ?? now) : status === 'void' ? inv.paid_at : null,
  };
}

/**
 * Works an invoice out again after its payments moved, writing it when anything changed;
 * `payments`, the workspace's, when the caller has read them already.
 */
export function settle(
  ws: Ws,
  invoiceId: string,
  now: string,
  payments: Iterable<Payment> = ws.all('payments'),
): void {
  const inv = ws.get('invoices', invoiceId);
  if (inv === undefined) {
    return;
  }
  const next = withPaid(inv, paidCents(payments, inv.id), now);
  if (JSON.stringify(next) !== JSON.stringify(inv)) {
    ws.put('invoices', { ...next, updated_at: now });
  }
}
