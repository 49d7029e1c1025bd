import {
  dollars,
  lineCents,
  maxCents,
  minCents,
  percentOf,
  shareOf,
  toCents,
} from '../common/cents';
import type { Invoice } from './schema';

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
    // The taxable lines' share of the discount, never more than the discount itself.
    const share =
      taxable <= 0n ? 0n : minCents(shareOf(discount ?? 0n, taxable, subtotal), discount ?? 0n);
    const base = maxCents(taxable - share, 0n);
    tax = percentOf(base, terms.tax_rate);
  }
  return { subtotal, discount, tax, total: subtotal - (discount ?? 0n) + (tax ?? 0n) };
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
