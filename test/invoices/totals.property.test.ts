import fc from 'fast-check';
import { beforeAll, describe, expect, test } from 'vitest';
import type { Json, TestWorkspace } from '../support/harness';
import { dollars, fresh, invoiceOf, newInvoice, newJob, ok, roundDiv } from './setup';

// decisions.md, Invoices (Totals) and Money: each line is quantity × unit price rounded to the
// cent; subtotal sums them; the discount (dollars, or a percent of the subtotal) comes off a
// positive subtotal only, never below zero; tax is tax_rate % of the taxable lines less their
// share of the discount (discount × taxable ÷ subtotal, at most the discount, not rounded on its
// own), never below zero;
// total = subtotal − discount + tax; balance_due = total − paid, never below zero. Every figure is
// rounded once, half away from zero. The model below works in integer cents from the integers
// the generators drew, never from the numbers' text, so it shares nothing with svc's code.

interface GenLine {
  /** quantity in hundredths (undefined: left out, 1) */
  q: number | undefined;
  /** unit price in cents */
  p: number;
  /** undefined: left out (not taxable: spec, LineItemInput, a line is marked taxable) */
  taxable: boolean | undefined;
}

type GenDiscount =
  | { kind: 'none' }
  | { kind: 'amount'; cents: number; typed: boolean }
  | { kind: 'percent'; hundredths: number };

interface Case {
  lines: GenLine[];
  discount: GenDiscount;
  /** tax rate in thousandths of a percent; undefined: no tax rate */
  rate: number | undefined;
}

const line: fc.Arbitrary<GenLine> = fc.record({
  q: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined }),
  p: fc.integer({ min: -500_000, max: 500_000 }),
  taxable: fc.option(fc.boolean(), { nil: undefined }),
});

const discount: fc.Arbitrary<GenDiscount> = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.record({
    kind: fc.constant('amount' as const),
    cents: fc.oneof(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: 10_000 })),
    typed: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('percent' as const),
    hundredths: fc.integer({ min: 0, max: 10_000 }),
  }),
);

const cases: fc.Arbitrary<Case> = fc.record({
  lines: fc.array(line, { minLength: 1, maxLength: 8 }),
  discount,
  rate: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: undefined }),
});

/** The request body for a case (numbers as a client would write them). */
function bodyOf(c: Case): Record<string, unknown> {
  const body: Record<string, unknown> = {
    line_items: c.lines.map((l, i) => ({
      name: `Line ${i + 1}`,
      unit_price: l.p / 100,
      ...(l.q === undefined ? {} : { quantity: l.q / 100 }),
      ...(l.taxable === undefined ? {} : { taxable: l.taxable }),
    })),
  };
  if (c.rate !== undefined) {
    body.tax_rate = c.rate / 1000;
  }
  if (c.discount.kind === 'amount') {
    body.discount_value = c.discount.cents / 100;
    if (c.discount.typed) {
      body.discount_type = 'amount';
    }
  } else if (c.discount.kind === 'percent') {
    body.discount_type = 'percent';
    body.discount_value = c.discount.hundredths / 100;
  }
  return body;
}

interface Expected {
  subtotal: bigint;
  discount: bigint | null;
  tax: bigint | null;
  total: bigint;
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** The figures of a case, in cents, by the rules of decisions.md. */
function expected(c: Case): Expected {
  let subtotal = 0n;
  let taxable = 0n;
  for (const l of c.lines) {
    // (q/100) × (p/100) dollars = q × p / 100 cents
    const cents = roundDiv(BigInt(l.q ?? 100) * BigInt(l.p), 100n);
    subtotal += cents;
    if (l.taxable === true) {
      taxable += cents;
    }
  }
  const room = max(subtotal, 0n);
  let disc: bigint | null = null;
  // A discount_value of 0 removes the discount.
  if (c.discount.kind === 'amount' && c.discount.cents !== 0) {
    disc = min(BigInt(c.discount.cents), room);
  } else if (c.discount.kind === 'percent' && c.discount.hundredths !== 0) {
    // (h/100) % of room cents = room × h / 10000
    disc = roundDiv(room * BigInt(c.discount.hundredths), 10_000n);
  }
  let tax: bigint | null = null;
  if (c.rate !== undefined) {
    // The base is taxable − share, share = d × taxable / subtotal capped at d, as the fraction
    // num / den of cents: only the tax itself is rounded.
    const d = disc ?? 0n;
    let num = max(taxable, 0n);
    let den = 1n;
    if (taxable > 0n && d > 0n) {
      const capped = d * taxable >= d * subtotal;
      num = capped ? max(taxable - d, 0n) : taxable * subtotal - d * taxable;
      den = capped ? 1n : subtotal;
    }
    // (rate/1000) % of num/den cents = num × rate / (den × 100000)
    tax = roundDiv(num * BigInt(c.rate), den * 100_000n);
  }
  return { subtotal, discount: disc, tax, total: subtotal - (disc ?? 0n) + (tax ?? 0n) };
}

function expectFigures(inv: Json, e: Expected, label: string): void {
  const money = (v: bigint | null) => (v === null ? null : dollars(v));
  expect(
    {
      subtotal: inv.subtotal,
      discount_amount: inv.discount_amount,
      tax_amount: inv.tax_amount,
      late_fee_amount: inv.late_fee_amount,
      total_amount: inv.total_amount,
      amount_paid: inv.amount_paid,
      balance_due: inv.balance_due,
    },
    label,
  ).toEqual({
    subtotal: dollars(e.subtotal),
    discount_amount: money(e.discount),
    tax_amount: money(e.tax),
    late_fee_amount: null,
    total_amount: dollars(e.total),
    amount_paid: 0,
    balance_due: dollars(max(e.total, 0n)),
  });
  expect(inv.balance_due).toBeGreaterThanOrEqual(0);
}

describe('invoice totals (property)', () => {
  let ws: TestWorkspace;
  let jobId: string;
  beforeAll(async () => {
    ({ ws } = await fresh());
    jobId = (await newJob(ws)).id;
  });

  test('POST /invoices totals random lines, discounts and tax rates exactly as the integer-cent rules do', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const body = bodyOf(c);
        const res = await ws.api.post('/invoices', { job_id: jobId, ...body });
        expect(res.status, res.text).toBe(201);
        expectFigures(res.body, expected(c), JSON.stringify(body));
      }),
      { numRuns: 60 },
    );
  });

  test('PATCH line_items, discount and tax rate recomputes the same figures a create gives', async () => {
    const draft = await newInvoice(ws, { job_id: jobId, tax_rate: 5 });
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const body = bodyOf(c);
        // The terms are cleared first (a value alone keeps the stored type, and a null type
        // clears the discount: decisions.md, Invoices), so the draft then holds the case's terms.
        const cleared = { tax_rate: null, discount_value: null };
        expect((await ws.api.patch(`/invoices/${draft.id}`, cleared)).status).toBe(200);
        const patch = { tax_rate: null, ...body };
        const res = await ws.api.patch(`/invoices/${draft.id}`, patch);
        expect(res.status, res.text).toBe(200);
        expectFigures(res.body, expected(c), JSON.stringify(patch));
        expect(await invoiceOf(ws, draft.id)).toEqual(res.body);
      }),
      { numRuns: 20 },
    );
  });
});

describe('invoice totals (examples)', () => {
  const totals = async (body: Record<string, unknown>) => {
    const { ws } = await fresh();
    const job = await newJob(ws);
    return ok(ws.api.post('/invoices', { job_id: job.id, ...body }), 201);
  };

  test('a line rounds half away from zero, once: 3 × 0.335 = 1.005 is 1.01', async () => {
    const inv = await totals({ line_items: [{ name: 'a', quantity: 3, unit_price: 0.335 }] });
    expect(inv.subtotal).toBe(1.01);
  });

  test('a credit rounds half away from zero too: 1 × -2.675 is -2.68', async () => {
    const inv = await totals({
      line_items: [
        { name: 'a', unit_price: 10 },
        { name: 'credit', unit_price: -2.675 },
      ],
    });
    expect(inv.subtotal).toBe(7.32);
  });

  test('lines are rounded each, not their sum: 2 × (1 × 0.005) is 0.02', async () => {
    const inv = await totals({
      line_items: [
        { name: 'a', unit_price: 0.005 },
        { name: 'b', unit_price: 0.005 },
      ],
    });
    expect(inv.subtotal).toBe(0.02);
  });

  test('0.1 + 0.2 is 0.3, not 0.30000000000000004', async () => {
    const inv = await totals({
      line_items: [
        { name: 'a', unit_price: 0.1 },
        { name: 'b', unit_price: 0.2 },
      ],
    });
    expect(inv).toMatchObject({ subtotal: 0.3, total_amount: 0.3, balance_due: 0.3 });
  });

  test('an amount discount is capped at the subtotal', async () => {
    const inv = await totals({
      line_items: [{ name: 'a', unit_price: 100 }],
      discount_value: 150,
      tax_rate: 10,
    });
    expect(inv).toMatchObject({ discount_amount: 100, tax_amount: 0, total_amount: 0 });
  });

  test('discount_value alone is an amount in dollars', async () => {
    const inv = await totals({ line_items: [{ name: 'a', unit_price: 200 }], discount_value: 10 });
    expect(inv).toMatchObject({ discount_amount: 10, total_amount: 190 });
  });

  test('a percent discount is that percent of the subtotal, rounded once', async () => {
    const inv = await totals({
      line_items: [{ name: 'a', unit_price: 33.33 }],
      discount_type: 'percent',
      discount_value: 10,
    });
    expect(inv).toMatchObject({ discount_amount: 3.33, total_amount: 30 });
  });

  test('no discount comes off a subtotal that is not positive', async () => {
    const inv = await totals({
      line_items: [
        { name: 'a', unit_price: 50 },
        { name: 'credit', unit_price: -80 },
      ],
      discount_value: 20,
    });
    expect(inv).toMatchObject({
      subtotal: -30,
      discount_amount: 0,
      total_amount: -30,
      balance_due: 0,
    });
  });

  test('a discount_value of 0 is no discount: discount_amount null', async () => {
    const inv = await totals({
      line_items: [{ name: 'a', unit_price: 50 }],
      discount_type: 'percent',
      discount_value: 0,
    });
    expect(inv).toMatchObject({ discount_amount: null, total_amount: 50 });
  });

  test('discount_type alone is no discount', async () => {
    const inv = await totals({
      line_items: [{ name: 'a', unit_price: 50 }],
      discount_type: 'percent',
    });
    expect(inv).toMatchObject({ discount_amount: null, total_amount: 50 });
  });

  test('tax is on the taxable lines less their share of the discount', async () => {
    // 100 taxable + 100 not; discount 50, half of it on the taxable lines; 10 % of 75 = 7.5.
    const inv = await totals({
      line_items: [
        { name: 'taxed', unit_price: 100, taxable: true },
        { name: 'labour', unit_price: 100, taxable: false },
      ],
      discount_value: 50,
      tax_rate: 10,
    });
    expect(inv).toMatchObject({
      subtotal: 200,
      discount_amount: 50,
      tax_amount: 7.5,
      total_amount: 157.5,
    });
  });

  test('the share of the discount is not rounded on its own: the tax is rounded once', async () => {
    // 33.33 taxable of 100, discount 10: share 3.333, base 29.997, 8.25 % of it 2.4747525,
    // so 2.47 (rounding the share to 3.33 first gave a base of 30 and a tax of 2.48).
    const inv = await totals({
      line_items: [
        { name: 'taxed', unit_price: 33.33, taxable: true },
        { name: 'labour', unit_price: 66.67 },
      ],
      discount_value: 10,
      tax_rate: 8.25,
    });
    expect(inv).toMatchObject({
      subtotal: 100,
      discount_amount: 10,
      tax_amount: 2.47,
      total_amount: 92.47,
    });
  });

  test("the taxable lines' share is never more than the discount", async () => {
    // 100 taxable, −50 credit not taxable: subtotal 50, discount 50 all of it; the share
    // 50 × 100 / 50 = 100 is capped at 50, so tax is 10 % of 50.
    const inv = await totals({
      line_items: [
        { name: 'taxed', unit_price: 100, taxable: true },
        { name: 'credit', unit_price: -50, taxable: false },
      ],
      discount_value: 50,
      tax_rate: 10,
    });
    expect(inv).toMatchObject({
      subtotal: 50,
      discount_amount: 50,
      tax_amount: 5,
      total_amount: 5,
    });
  });

  test('tax is never below zero: a taxable credit pays no tax back', async () => {
    const inv = await totals({
      line_items: [
        { name: 'labour', unit_price: 300, taxable: false },
        { name: 'credit', unit_price: -100, taxable: true },
      ],
      tax_rate: 10,
    });
    expect(inv).toMatchObject({ subtotal: 200, tax_amount: 0, total_amount: 200 });
  });

  test('no tax rate is tax_amount null; a rate of 0 is 0', async () => {
    expect((await totals({ line_items: [{ name: 'a', unit_price: 9 }] })).tax_amount).toBeNull();
    expect(
      (await totals({ line_items: [{ name: 'a', unit_price: 9 }], tax_rate: 0 })).tax_amount,
    ).toBe(0);
  });

  test('a quantity of 0 prices the line at 0', async () => {
    const inv = await totals({ line_items: [{ name: 'a', quantity: 0, unit_price: 99 }] });
    expect(inv).toMatchObject({ subtotal: 0, total_amount: 0, balance_due: 0 });
  });

  test('large figures stay exact: 100 × 9,999,999.99 at 7.125 % tax', async () => {
    // The most lines may come to is $1,000,000,000 (decisions.md, Money).
    const inv = await totals({
      line_items: [{ name: 'a', quantity: 100, unit_price: 9_999_999.99, taxable: true }],
      tax_rate: 7.125,
    });
    // 999,999,999.00 + 7.125 % (71,249,999.92875, rounded once) = 1,071,249,998.93
    expect(inv).toMatchObject({
      subtotal: 999_999_999,
      tax_amount: 71_249_999.93,
      total_amount: 1_071_249_998.93,
    });
  });
});
