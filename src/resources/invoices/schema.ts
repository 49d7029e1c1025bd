import { z } from '@hono/zod-openapi';
import { listOf, nullableTimestamp, timestamp } from '../../platform/openapi/schemas';
import type { Rec } from '../../store';

const nullable = z.string().nullable();
const amount = z.number().nullable();

export const InvoiceSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('invoice'),
    invoice_number: nullable,
    title: nullable,
    status: z.string().meta({
      description: 'draft, sent, viewed, partially_paid, paid, overdue, void, bad_debt',
      example: 'draft',
    }),
    purpose: nullable,
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

export type Invoice = Rec &
  Omit<z.infer<typeof InvoiceSchema>, 'url' | 'id' | 'pdf_url' | 'payment_url'>;

declare module '../../store/collections' {
  interface WorkspaceCollections {
    invoices: Invoice;
  }
}

export const InvoiceListSchema = listOf(InvoiceSchema, 'InvoiceList');
