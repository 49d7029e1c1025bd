import type { WorkspaceCollections } from '../../store';
import { dollars, lineCents, maxCents, minCents, percentOf, toCents } from '../common/cents';

type Invoice = WorkspaceCollections['invoices'];

type Terms = Pick<Invoice, 'line_items' | 'tax_rate' | 'discount_type' | 'discount_value'>;

/**
 * decisions.md, Invoices: the figures of an invoice, in whole cents, each rounded once (half away
 * from zero). Each line is quantity × unit price. The discount (an amount, or a percent of the
 * subtotal) comes off a positive subtotal and never takes it below zero. Tax is tax_rate percent
 * of the taxable lines, less their share of the discount, never below zero. The total is
 * subtotal − discount + tax; the balance is total − paid, never below zero.
 */
export function invoiceCents(terms: Terms) {
  let subtotal = 0n;
  let taxable = 0n;
  for (const line of terms.line_items) {
    const cents = lineCents(line.quantity, line.unit_price ?? 0);
    subtotal += cents;
    if (line.taxable) {
      taxable += cents;
    }
  }
  const room = maxCents(subtotal, 0n);
  let discount: bigint | null = null;
  if (terms.discount_type !== null && terms.discount_value !== null) {
    discount =
      terms.discount_type === 'percent'
        ? percentOf(room, terms.discount_value)
        : minCents(toCents(terms.discount_value), room);
  }
  let tax: bigint | null = null;
  if (terms.tax_rate !== null) {
    const [base, per] = taxedBase(taxable, subtotal, discount ?? 0n);
    tax = percentOf(base, terms.tax_rate, per);
  }
  return { subtotal, discount, tax, total: subtotal - (discount ?? 0n) + (tax ?? 0n) };
}

/**
 * What tax is on, as cents / per: the taxable lines less their share of the discount (discount ×
 * taxable ÷ subtotal, never more than the discount), never below zero. The share is a fraction of
 * cents, left unrounded so the tax is rounded once (decisions.md, Money). A discount is only ever
 * taken from a positive subtotal, which it never passes.
 */
function taxedBase(taxable: bigint, subtotal: bigint, discount: bigint): [bigint, bigint] {
  if (taxable <= 0n) {
    return [0n, 1n];
  }
  if (discount === 0n) {
    return [taxable, 1n];
  }
  if (taxable >= subtotal) {
    return [maxCents(taxable - discount, 0n), 1n]; // the share is capped at the discount
  }
  return [taxable * (subtotal - discount), subtotal];
}

/** The figures GET shows, given what has been paid on the invoice (in cents). */
export function invoiceFigures(terms: Terms, paid: bigint) {
  const c = invoiceCents(terms);
  const money = (v: bigint | null) => (v === null ? null : dollars(v));
  return {
    subtotal: dollars(c.subtotal),
    discount_amount: money(c.discount),
    tax_amount: money(c.tax),
    total_amount: dollars(c.total),
    amount_paid: dollars(paid),
    balance_due: dollars(maxCents(c.total - paid, 0n)),
  };
}
