import { z } from '@hono/zod-openapi';
import { listOf, timestamp } from '../../platform/openapi/schemas';
import type { Rec } from '../../store';

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
export type Payment = Rec & Omit<z.infer<typeof PaymentSchema>, 'url' | 'id'>;

declare module '../../store/collections' {
  interface WorkspaceCollections {
    payments: Payment;
  }
}

// A payment counts as money in hand once it is no longer only expected.
export const isReceived = (p: Payment) => p.status !== 'expected';

export const PaymentListSchema = listOf(PaymentSchema, 'PaymentList');
