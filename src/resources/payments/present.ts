import type { z } from '@hono/zod-openapi';
import { defineRecords, shape } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';
import { jobIsLive } from '../common/job';
import { type Payment, PaymentSchema } from './schema';

export const presentPayment = (ctx: ServiceContext, p: Payment): z.infer<typeof PaymentSchema> =>
  shape(PaymentSchema, p, {
    object: 'payment',
    url: `${ctx.appUrl}/payments/${p.id}`,
  });

/** Payments as the API shows them; a deleted job's are gone with it. */
export const paymentRecords = defineRecords({
  coll: 'payments',
  schema: PaymentSchema,
  present: presentPayment,
  visible: (ctx, rec) => jobIsLive(ctx, rec.job_id),
  reads: [],
});
