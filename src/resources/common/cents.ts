// decisions.md, Money: money is computed in whole cents, as bigints, from the decimal a client
// wrote (a JSON number's shortest text is that decimal), and each figure is rounded once, half
// away from zero. Binary floating point never adds two amounts, so 0.1 + 0.2 shows as 0.3.

/** A number as an exact decimal: `digits` × 10^-`scale`. */
interface Decimal {
  digits: bigint;
  scale: number;
}

const TEN = 10n;

function decimalOf(n: number): Decimal {
  if (!Number.isFinite(n)) {
    throw new RangeError(`not a finite amount: ${n}`);
  }
  // The shortest text that reads back as n: the decimal the client sent.
  const [mantissa = '0', exp = '0'] = n.toString().toLowerCase().split('e');
  const [whole = '0', fraction = ''] = mantissa.split('.');
  const scale = fraction.length - Number(exp);
  const digits = BigInt(whole + fraction);
  return scale >= 0 ? { digits, scale } : { digits: digits * TEN ** BigInt(-scale), scale: 0 };
}

/** num / den rounded to a whole number, halves away from zero (den > 0). */
export function divRound(num: bigint, den: bigint): bigint {
  const q = num / den;
  const r = num % den;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice < den) {
    return q;
  }
  return num < 0n ? q - 1n : q + 1n;
}

/** Dollars as cents, rounded once. */
export function toCents(dollars: number): bigint {
  const d = decimalOf(dollars);
  return divRound(d.digits * 100n, TEN ** BigInt(d.scale));
}

/** quantity × unit price, in cents, rounded once. */
export function lineCents(quantity: number, unitPrice: number): bigint {
  const q = decimalOf(quantity);
  const p = decimalOf(unitPrice);
  return divRound(q.digits * p.digits * 100n, TEN ** BigInt(q.scale + p.scale));
}

/**
 * `percent` % of an amount in cents, rounded once. The amount may be a fraction of cents,
 * `cents / per` (per > 0), so that a figure made of a share is still rounded only at the end.
 */
export function percentOf(cents: bigint, percent: number, per = 1n): bigint {
  const p = decimalOf(percent);
  return divRound(cents * p.digits, per * 100n * TEN ** BigInt(p.scale));
}

/** Cents as the JSON number of dollars the API shows (the nearest double to the decimal). */
export const dollars = (cents: bigint): number => Number(cents) / 100;

/** An amount kept to the cent: the dollars sent, rounded once. */
export const toCent = (amount: number): number => dollars(toCents(amount));

/** Sums dollar amounts exactly. */
export function sumDollars(amounts: Iterable<number>): number {
  let total = 0n;
  for (const a of amounts) {
    total += toCents(a);
  }
  return dollars(total);
}

export const maxCents = (a: bigint, b: bigint): bigint => (a > b ? a : b);
export const minCents = (a: bigint, b: bigint): bigint => (a < b ? a : b);
