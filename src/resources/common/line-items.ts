import { z } from '@hono/zod-openapi';
import { lineCents } from './cents';
import { MAX_MONEY, text } from './fields';

/** decisions.md, Money: at most 500 lines on an estimate or an invoice (the spec leaves it open). */
export const MAX_LINES = 500;

/** A line as stored on an estimate or an invoice; a checklist line has no price. */
export interface Line {
  name: string;
  quantity: number;
  unit_price: number | null;
  taxable: boolean;
}

/** spec, LineItemInput: name, quantity, unit_price (negative: a credit), and taxable. */
export const LineItemInputSchema = z
  .object({
    name: text(300).min(1, 'must not be empty'),
    quantity: z.number().min(0).max(1_000_000).default(1).openapi({ description: 'Defaults to 1' }),
    unit_price: z
      .number()
      .min(-10_000_000)
      .max(10_000_000)
      .openapi({ description: 'Dollars; a negative price is a credit' }),
    // spec, LineItemInput: "a way to mark a line taxable exists"; Invoices: "tax applies to
    // taxable lines". A line is taxed when it is marked so, never by default.
    taxable: z.boolean().default(false).openapi({
      description:
        "Marks the line taxable: the invoice's tax_rate applies to it; defaults to false",
    }),
  })
  .openapi('LineItemInput');

export type LineItemInput = z.output<typeof LineItemInputSchema>;

/**
 * decisions.md, Money: the lines of one estimate or invoice come to at most MAX_MONEY, credits
 * counted as their size. Past that, a total in dollars could no longer be a JSON number exact to
 * the cent.
 */
export const lineItems = () =>
  z
    .array(LineItemInputSchema)
    .min(1)
    .max(MAX_LINES)
    .refine(
      (lines) => {
        let cents = 0n;
        for (const l of lines) {
          const line = lineCents(l.quantity, l.unit_price);
          cents += line < 0n ? -line : line;
        }
        return cents <= BigInt(MAX_MONEY) * 100n;
      },
      { message: 'the lines come to more than $1,000,000,000' },
    );

export const toLines = (input: readonly LineItemInput[]): Line[] =>
  input.map((l) => ({
    name: l.name,
    quantity: l.quantity,
    unit_price: l.unit_price,
    taxable: l.taxable,
  }));

/** The sum of lines in cents, each rounded once; undefined when a line has no price. */
export function linesCents(lines: readonly Line[]): bigint | undefined {
  let sum = 0n;
  for (const line of lines) {
    if (line.unit_price === null) {
      return undefined;
    }
    sum += lineCents(line.quantity, line.unit_price);
  }
  return sum;
}
