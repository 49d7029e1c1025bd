import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/context';
import type { RouteDeps } from '../../platform/family';
import { jsonResponse } from '../../platform/openapi/responses';
import {
  byId,
  changeErrors,
  jsonBody,
  pageAnswer,
  readErrors,
  readOneErrors,
  recordAnswer,
  recordId,
  writeOnly,
} from '../common/routing';
import { paymentRecords } from './present';
import { PaymentCreateSchema, PaymentListQuery, PaymentListSchema, PaymentSchema } from './schema';
import { createPayment, getPayment, listPayments } from './service';

const tags = ['Payments'];

const list = createRoute({
  method: 'get',
  path: '/payments',
  operationId: 'listPayments',
  summary: 'Payments and refunds, newest first',
  tags,
  request: { query: PaymentListQuery },
  responses: { 200: jsonResponse(PaymentListSchema, 'A page of payments'), ...readErrors() },
});

const create = createRoute({
  method: 'post',
  path: '/payments',
  operationId: 'createPayment',
  summary: "Record a payment on a job (and one of its invoices); the job's money follows",
  tags,
  middleware: writeOnly,
  request: { body: jsonBody(PaymentCreateSchema) },
  responses: { 201: jsonResponse(PaymentSchema, 'The payment'), ...changeErrors() },
});

const getOne = createRoute({
  method: 'get',
  path: '/payments/{id}',
  operationId: 'getPayment',
  summary: 'One payment',
  tags,
  ...byId,
  responses: { 200: jsonResponse(PaymentSchema, 'The payment'), ...readOneErrors() },
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
