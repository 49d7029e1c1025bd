import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import type { RouteDeps } from '../../platform/family';
import { jsonResponse } from '../../platform/openapi/responses';
import {
  byId,
  changeErrors,
  createOperation,
  deletedResponse,
  getOperation,
  listOperation,
  pageAnswer,
  recordAnswer,
  recordId,
  updateOperation,
  writeOnly,
} from '../common/routing';
import { invoiceRecords } from './present';
import {
  InvoiceCreateSchema,
  InvoiceListQuery,
  InvoiceListSchema,
  InvoiceSchema,
  InvoiceUpdateSchema,
} from './schema';
import {
  createInvoice,
  deleteInvoice,
  getInvoice,
  listInvoices,
  markSent,
  updateInvoice,
  voidInvoice,
} from './service';

const tags = ['Invoices'];

const list = listOperation({
  path: '/invoices',
  operationId: 'listInvoices',
  summary: 'Invoices, newest first',
  tags,
  query: InvoiceListQuery,
  schema: InvoiceListSchema,
  description: 'A page of invoices',
});

const create = createOperation({
  path: '/invoices',
  operationId: 'createInvoice',
  summary: 'Make a draft invoice for a job or a contact; the service numbers and totals it',
  tags,
  body: InvoiceCreateSchema,
  schema: InvoiceSchema,
  description: 'The draft invoice',
});

const getOne = getOperation({
  path: '/invoices/{id}',
  operationId: 'getInvoice',
  summary: 'One invoice',
  tags,
  schema: InvoiceSchema,
  description: 'The invoice',
});

const update = updateOperation({
  path: '/invoices/{id}',
  operationId: 'updateInvoice',
  summary: 'Change a draft invoice (409 once it is not a draft); totals are recomputed',
  tags,
  body: InvoiceUpdateSchema,
  schema: InvoiceSchema,
  description: 'The invoice as it now is',
});

const remove = createRoute({
  method: 'delete',
  path: '/invoices/{id}',
  operationId: 'deleteInvoice',
  summary: 'Delete a draft invoice (409 otherwise: void it instead)',
  tags,
  middleware: writeOnly,
  ...byId,
  responses: { 200: deletedResponse(), ...changeErrors(true) },
});

const action = (verb: 'mark_sent' | 'void', operationId: string, summary: string) =>
  createRoute({
    method: 'post',
    path: `/invoices/{id}/${verb}`,
    operationId,
    summary,
    tags,
    middleware: writeOnly,
    ...byId,
    responses: {
      200: jsonResponse(InvoiceSchema, 'The invoice as it now is'),
      ...changeErrors(true),
    },
  });

const markSentRoute = action(
  'mark_sent',
  'markInvoiceSent',
  'Record that it went out another way: a draft becomes sent and its pay page turns on',
);
const voidRoute = action('void', 'voidInvoice', 'Void it (a void invoice is answered as it is)');

export function invoiceRoutes(deps: RouteDeps) {
  return new OpenAPIHono<AppEnv>()
    .openapi(list, (c) => {
      const ctx = c.get('ctx');
      const q = c.req.valid('query');
      const scan = (after: Parameters<typeof listInvoices>[2]) => listInvoices(ctx, q, after);
      return pageAnswer(c, deps, 'invoices', q, scan, invoiceRecords);
    })
    .openapi(create, (c) =>
      recordAnswer(c, invoiceRecords, createInvoice(c.get('ctx'), c.req.valid('json')), 201),
    )
    .openapi(getOne, (c) =>
      recordAnswer(c, invoiceRecords, getInvoice(c.get('ctx'), recordId(c)), 200),
    )
    .openapi(update, (c) => {
      const invoice = updateInvoice(c.get('ctx'), recordId(c), c.req.valid('json'));
      return recordAnswer(c, invoiceRecords, invoice, 200);
    })
    .openapi(remove, (c) => {
      const { id } = deleteInvoice(c.get('ctx'), recordId(c));
      return c.json({ id, object: 'invoice', deleted: true as const }, 200);
    })
    .openapi(markSentRoute, (c) =>
      recordAnswer(c, invoiceRecords, markSent(c.get('ctx'), recordId(c)), 200),
    )
    .openapi(voidRoute, (c) =>
      recordAnswer(c, invoiceRecords, voidInvoice(c.get('ctx'), recordId(c)), 200),
    );
}
