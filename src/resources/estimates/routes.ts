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
import { estimateRecords } from './present';
import {
  EstimateCreateSchema,
  EstimateListQuery,
  EstimateListSchema,
  EstimateSchema,
  EstimateUpdateSchema,
} from './schema';
import { createEstimate, getEstimate, listEstimates, updateEstimate } from './service';

const tags = ['Estimates'];

const list = createRoute({
  method: 'get',
  path: '/estimates',
  operationId: 'listEstimates',
  summary: 'Estimates, newest first',
  tags,
  request: { query: EstimateListQuery },
  responses: { 200: jsonResponse(EstimateListSchema, 'A page of estimates'), ...readErrors() },
});

const create = createRoute({
  method: 'post',
  path: '/estimates',
  operationId: 'createEstimate',
  summary: 'Make a draft estimate for a job, from a template or the standard proposal',
  tags,
  middleware: writeOnly,
  request: { body: jsonBody(EstimateCreateSchema) },
  responses: { 201: jsonResponse(EstimateSchema, 'The draft estimate'), ...changeErrors() },
});

const getOne = createRoute({
  method: 'get',
  path: '/estimates/{id}',
  operationId: 'getEstimate',
  summary: 'One estimate',
  tags,
  ...byId,
  responses: { 200: jsonResponse(EstimateSchema, 'The estimate'), ...readOneErrors() },
});

const update = createRoute({
  method: 'patch',
  path: '/estimates/{id}',
  operationId: 'updateEstimate',
  summary: 'Change the title, price or valid-until date (409 once out for signature or signed)',
  tags,
  middleware: writeOnly,
  request: { body: jsonBody(EstimateUpdateSchema) },
  ...byId,
  responses: {
    200: jsonResponse(EstimateSchema, 'The estimate as it now is'),
    ...changeErrors(true),
  },
});

export function estimateRoutes(deps: RouteDeps) {
  return new OpenAPIHono<AppEnv>()
    .openapi(list, (c) => {
      const ctx = c.get('ctx');
      const q = c.req.valid('query');
      const scan = (after: Parameters<typeof listEstimates>[2]) => listEstimates(ctx, q, after);
      return pageAnswer(c, deps, 'estimates', q, scan, estimateRecords);
    })
    .openapi(create, (c) =>
      recordAnswer(c, estimateRecords, createEstimate(c.get('ctx'), c.req.valid('json')), 201),
    )
    .openapi(getOne, (c) =>
      recordAnswer(c, estimateRecords, getEstimate(c.get('ctx'), recordId(c)), 200),
    )
    .openapi(update, (c) => {
      const estimate = updateEstimate(c.get('ctx'), recordId(c), c.req.valid('json'));
      return recordAnswer(c, estimateRecords, estimate, 200);
    });
}
