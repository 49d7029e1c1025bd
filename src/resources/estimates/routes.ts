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
  updateOperation,
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

const list = listOperation({
  path: '/estimates',
  operationId: 'listEstimates',
  summary: 'Estimates, newest first',
  tags,
  query: EstimateListQuery,
  schema: EstimateListSchema,
  description: 'A page of estimates',
});

const create = createOperation({
  path: '/estimates',
  operationId: 'createEstimate',
  summary: 'Make a draft estimate for a job, from a template or the standard proposal',
  tags,
  body: EstimateCreateSchema,
  schema: EstimateSchema,
  description: 'The draft estimate',
});

const getOne = getOperation({
  path: '/estimates/{id}',
  operationId: 'getEstimate',
  summary: 'One estimate',
  tags,
  schema: EstimateSchema,
  description: 'The estimate',
});

const update = updateOperation({
  path: '/estimates/{id}',
  operationId: 'updateEstimate',
  summary: 'Change the title, price or valid-until date (409 once out for signature or signed)',
  tags,
  body: EstimateUpdateSchema,
  schema: EstimateSchema,
  description: 'The estimate as it now is',
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
