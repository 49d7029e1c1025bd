import { z } from '@hono/zod-openapi';
import { listOf, timestamp } from '../../platform/openapi/schemas';
import { pagingQuery } from '../../platform/paging';
import type { Rec } from '../../store';
import { createShape, date, text, uuidInput } from '../common/fields';

export const PAYMENT_TYPES = [
  'acv',
  'deductible',
  'supplement',
  'depreciation',
  'retail',
  'other',
] as const;
export const PAYER_TYPES = ['insurance', 'homeowner', 'mortgage_company', 'other'] as const;
export const PAYMENT_METHODS = ['check', 'cash', 'card', 'ach', 'financing', 'other'] as const;
export const PAYMENT_STATUSES = [
  'expected',
  'received',
  'sent_to_mortgage',
  'endorsed',
  'deposited',
] as const;

const nullable = z.string().nullable();

export const PaymentSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('payment'),
    job_id: z.uuid(),
    invoice_id: z.uuid().nullable(),
    amount: z.number().openapi({ description: 'Negative for a refund' }),
    payment_type: z.string().meta({ description: PAYMENT_TYPES.join(', '), example: 'other' }),
    payer_type: z.string().meta({ description: PAYER_TYPES.join(', '), example: 'homeowner' }),
    payment_method: z.string().meta({ description: PAYMENT_METHODS.join(', '), example: 'check' }),
    status: z.string().meta({ description: PAYMENT_STATUSES.join(', '), example: 'received' }),
    check_number: nullable,
    date_received: nullable.openapi({ format: 'date' }),
    date_deposited: nullable.openapi({ format: 'date' }),
    notes: nullable,
    is_refund: z.boolean(),
    refund_of_payment_id: z.uuid().nullable(),
    online: z.boolean(),
    created_at: timestamp(),
    updated_at: timestamp(),
    url: z.url().nullable(),
  })
  .openapi('Payment');

/** Stored as presented, less the `url` a request's origin forms. */
export type Payment = Rec &
  Omit<z.infer<typeof PaymentSchema>, 'url' | 'id'> & {
    payment_type: (typeof PAYMENT_TYPES)[number];
    payer_type: (typeof PAYER_TYPES)[number];
    payment_method: (typeof PAYMENT_METHODS)[number];
    status: PaymentStatus;
  };
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

declare module '../../store/collections' {
  interface WorkspaceCollections {
    payments: Payment;
  }
}

export const PaymentListSchema = listOf(PaymentSchema, 'PaymentList');

export const PaymentCreateSchema = z
  .object({
    job_id: uuidInput(),
    amount: z
      .number()
      .gt(0, 'must be greater than 0')
      .max(1_000_000_000)
      .openapi({ description: 'Dollars, kept to the cent' }),
    ...createShape({
      invoice_id: uuidInput().openapi({
        description: 'An invoice on this job; omitted, the payment sits on the job',
      }),
      payment_type: z.enum(PAYMENT_TYPES).openapi({ description: 'Defaults to other' }),
      payer_type: z.enum(PAYER_TYPES).openapi({ description: 'Defaults to homeowner' }),
      payment_method: z.enum(PAYMENT_METHODS).openapi({ description: 'Defaults to check' }),
      status: z.enum(PAYMENT_STATUSES).openapi({ description: 'Defaults to received' }),
      check_number: text(100),
      date_received: date().openapi({ description: 'Defaults to today (US Central time)' }),
      date_deposited: date(),
      notes: text(10_000),
    }),
  })
  .openapi('PaymentCreate');

export type PaymentCreate = z.output<typeof PaymentCreateSchema>;

export const PaymentListQuery = pagingQuery.extend({
  job_id: uuidInput().optional(),
  invoice_id: uuidInput().optional(),
  payment_type: z.enum(PAYMENT_TYPES).optional(),
});

export type PaymentListQuery = z.output<typeof PaymentListQuery>;
