import { z } from '@hono/zod-openapi';
import {
  listOf,
  nullableTimestamp,
  requiresOneOf,
  timestamp,
} from '../../platform/openapi/schemas';
import { pagingQuery } from '../../platform/paging';
import type { Rec, Template } from '../../store';
import { createShape, date, patchShape, text, uuidInput } from '../common/fields';
import { type Line, lineItems } from '../common/line-items';

export const INVOICE_STATUSES = [
  'draft',
  'sent',
  'viewed',
  'partially_paid',
  'paid',
  'overdue',
  'void',
  'bad_debt',
] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const PURPOSES = [
  'claim_scope',
  'deductible',
  'supplement',
  'depreciation',
  'contract',
  'other',
] as const;
export const DISCOUNT_TYPES = ['amount', 'percent'] as const;

const nullable = z.string().nullable();
const amount = z.number().nullable();

export const InvoiceSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('invoice'),
    invoice_number: nullable,
    title: nullable,
    status: z.string().meta({ description: INVOICE_STATUSES.join(', '), example: 'draft' }),
    purpose: nullable.openapi({ description: PURPOSES.join(', ') }),
    subtotal: amount,
    discount_amount: amount,
    tax_amount: amount,
    late_fee_amount: amount,
    total_amount: z.number(),
    amount_paid: z.number(),
    balance_due: z.number(),
    part_number: z.number().int().nullable(),
    part_count: z.number().int().nullable(),
    issue_date: nullable.openapi({ format: 'date' }),
    due_date: nullable.openapi({ format: 'date' }),
    sent_at: nullableTimestamp(),
    first_viewed_at: nullableTimestamp(),
    paid_at: nullableTimestamp(),
    job_id: z.uuid().nullable(),
    contact_id: z.uuid().nullable(),
    estimate_id: z.uuid().nullable(),
    pdf_url: z.url().nullable(),
    created_at: timestamp(),
    updated_at: timestamp(),
    url: z.url(),
    payment_url: z.url().nullable(),
  })
  .openapi('Invoice');

/**
 * An invoice as stored: what GET shows (its figures kept up to date by every change and payment),
 * and what they are worked out from, which GET does not show (spec, Invoice).
 */
export type Invoice = Rec &
  Omit<z.infer<typeof InvoiceSchema>, 'url' | 'id' | 'pdf_url' | 'payment_url'> & {
    status: InvoiceStatus;
    purpose: (typeof PURPOSES)[number] | null;
    line_items: Line[];
    tax_rate: number | null;
    discount_type: (typeof DISCOUNT_TYPES)[number] | null;
    discount_value: number | null;
    notes: string | null;
    terms: string | null;
    allow_partial_payments: boolean;
    /** When it went overdue: invoice.overdue fires once. */
    overdue_at: string | null;
    /** When it was written off: bad debt again if a refund reopens it once paid. */
    written_off_at?: string | null;
  };

declare module '../../store/collections' {
  interface WorkspaceCollections {
    invoices: Invoice;
  }
}

export const InvoiceListSchema = listOf(InvoiceSchema, 'InvoiceList');

const invoiceFields = {
  contact_id: uuidInput().openapi({ description: 'Who it bills' }),
  estimate_id: uuidInput(),
  title: text(300),
  purpose: z.enum(PURPOSES).openapi({ description: 'Fills the matching job figure' }),
  issue_date: date(),
  due_date: date(),
  tax_rate: z.number().min(0).max(100).openapi({ description: 'A percent, on taxable lines' }),
  discount_type: z.enum(DISCOUNT_TYPES),
  discount_value: z
    .number()
    .min(0)
    .max(1_000_000_000)
    .openapi({ description: 'Dollars, or a percent (up to 100) with discount_type percent' }),
  notes: text(10_000),
  terms: text(10_000),
  allow_partial_payments: z.boolean(),
};

export const InvoiceCreateSchema = z
  .object({
    ...createShape({
      job_id: uuidInput(),
      ...invoiceFields,
      issue_date: date().openapi({ description: 'Defaults to today (US Central time)' }),
    }),
    line_items: lineItems(),
  })
  .openapi('InvoiceCreate', {
    description:
      'A draft invoice for a job (job_id) or a contact (contact_id), with at least one line',
    ...requiresOneOf([['job_id', 'contact_id']], {
      job_id: { type: 'string', format: 'uuid' },
      contact_id: { type: 'string', format: 'uuid' },
    }),
  });

export const InvoiceUpdateSchema = z
  .object({
    ...patchShape(invoiceFields),
    line_items: lineItems().optional().openapi({ description: 'Replaces every line' }),
  })
  .openapi('InvoiceUpdate');

export type InvoiceCreate = z.output<typeof InvoiceCreateSchema>;
export type InvoiceUpdate = z.output<typeof InvoiceUpdateSchema>;

export const InvoiceListQuery = pagingQuery.extend({
  status: z.enum(INVOICE_STATUSES).optional(),
  job_id: uuidInput().optional(),
  contact_id: uuidInput().optional(),
  invoice_number: z.string().max(100).optional(),
});

export type InvoiceListQuery = z.output<typeof InvoiceListQuery>;

/**
 * A new invoice before its body and its numbers: a draft that knows nothing yet; what every
 * create sets is left undefined, so that a create adds no key (store Template).
 */
export const NEW_INVOICE = {
  object: 'invoice',
  invoice_number: null,
  title: null,
  status: 'draft',
  purpose: null,
  subtotal: 0,
  discount_amount: null,
  tax_amount: null,
  late_fee_amount: null,
  total_amount: 0,
  amount_paid: 0,
  balance_due: 0,
  part_number: null,
  part_count: null,
  issue_date: null,
  due_date: null,
  sent_at: null,
  first_viewed_at: null,
  paid_at: null,
  job_id: null,
  contact_id: null,
  estimate_id: null,
  line_items: [],
  tax_rate: null,
  discount_type: null,
  discount_value: null,
  notes: null,
  terms: null,
  allow_partial_payments: true,
  overdue_at: null,
  written_off_at: null,
  id: undefined,
  created_at: undefined,
  updated_at: undefined,
} satisfies Template<Invoice, 'id' | 'created_at' | 'updated_at'>;
