import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import type { RouteDeps } from '../../platform/family';
import {
  createOperation,
  getOperation,
  listOperation,
  pageAnswer,
  recordAnswer,
  recordId,
} from '../common/routing';
import { paymentRecords } from './present';
import { PaymentCreateSchema, PaymentListQuery, PaymentListSchema, PaymentSchema } from './schema';
import { createPayment, getPayment, listPayments } from './service';

const tags = ['Payments'];

const list = listOperation({
  path: '/payments',
  operationId: 'listPayments',
  summary: 'Payments and refunds, newest first',
  tags,
  query: PaymentListQuery,
  schema: PaymentListSchema,
  description: 'A page of payments',
});

const create = createOperation({
  path: '/payments',
  operationId: 'createPayment',
  summary: "Record a payment on a job (and one of its invoices); the job's money follows",
  tags,
  body: PaymentCreateSchema,
  schema: PaymentSchema,
  description: 'The payment',
});

const getOne = getOperation({
  path: '/payments/{id}',
  operationId: 'getPayment',
  summary: 'One payment',
  tags,
  schema: PaymentSchema,
  description: 'The payment',
});

export function paymentRoutes(deps: RouteDeps) {
  return new OpenAPIHono<AppEnv>()
    .openapi(list, (c) => {
      const ctx = c.get('ctx');
      const q = c.req.valid('query');
      const scan = (after: Parameters<typeof listPayments>[2]) => listPayments(ctx, q, after);
      return pageAnswer(c, deps, 'payments', q, scan, paymentRecords);
    })
    .openapi(create, (c) =>
      recordAnswer(c, paymentRecords, createPayment(c.get('ctx'), c.req.valid('json')), 201),
    )
    .openapi(getOne, (c) =>
      recordAnswer(c, paymentRecords, getPayment(c.get('ctx'), recordId(c)), 200),
    );
}
