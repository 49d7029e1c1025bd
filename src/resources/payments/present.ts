import type { z } from '@hono/zod-openapi';
import type { ServiceContext } from '../../platform/context';
import type { Payment, PaymentSchema } from './schema';

export const presentPayment = (ctx: ServiceContext, p: Payment): z.infer<typeof PaymentSchema> => ({
  ...p,
  object: 'payment',
  url: `${ctx.appUrl}/payments/${p.id}`,
});
