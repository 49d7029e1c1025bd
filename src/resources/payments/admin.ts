import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import type { Runtime } from '../../platform/runtime';
import { appAction } from '../common/app-side';
import { date } from '../common/fields';
import { paymentRecords } from './present';
import { PAYMENT_STATUSES } from './schema';
import { refundPayment, setPaymentStatus } from './service';

const RefundSchema = z
  .object({
    amount: z
      .number()
      .gt(0, 'must be greater than 0')
      .max(1_000_000_000)
      .optional()
      .openapi({ description: 'How much to give back (positive); defaults to all that is left' }),
  })
  .openapi('AdminPaymentRefund');

const StatusSchema = z
  .object({
    status: z.enum(PAYMENT_STATUSES),
    date_received: date().optional().openapi({
      description:
        'The day the money came in; left out, the payment keeps the date it was recorded with',
    }),
  })
  .openapi('AdminPaymentStatus');

/** DESIGN.md, control API: refunds, and payment status moves, as the app makes them. */
export function paymentAdmin(rt: Runtime) {
  const app = new OpenAPIHono<AppEnv>();
  appAction(
    app,
    rt,
    paymentRecords,
    {
      verb: 'refund',
      operationId: 'refundPayment',
      summary: 'A refund: its own payment, negative, is_refund, refund_of_payment_id (answered)',
      body: RefundSchema,
      bodyOptional: true,
    },
    (ctx, id, body) => refundPayment(ctx, id, body),
  );
  appAction(
    app,
    rt,
    paymentRecords,
    {
      operationId: 'setPaymentStatus',
      summary: 'Move a payment: expected, received, sent_to_mortgage, endorsed, deposited',
      body: StatusSchema,
    },
    (ctx, id, body) => setPaymentStatus(ctx, id, body),
  );
  return app;
}
