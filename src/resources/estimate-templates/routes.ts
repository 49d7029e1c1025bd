import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import { baseErrors, errorResponses, jsonResponse } from '../../platform/openapi/responses';
import { listOf } from '../../platform/openapi/schemas';
import { limitParam, wholeList } from '../../platform/paging';
import { EstimateTemplateSchema } from './schema';
import { listTemplates, presentTemplate } from './service';

const list = createRoute({
  method: 'get',
  path: '/estimate_templates',
  operationId: 'listEstimateTemplates',
  summary: 'Estimate templates, most recently changed first (not paged)',
  tags: ['Estimates'],
  request: { query: z.object({ limit: limitParam }) },
  responses: {
    200: jsonResponse(listOf(EstimateTemplateSchema, 'EstimateTemplateList'), 'Templates'),
    ...errorResponses('invalid_request', ...baseErrors),
  },
});

export function estimateTemplateRoutes() {
  return new OpenAPIHono<AppEnv>().openapi(list, (c) => {
    const { limit } = c.req.valid('query');
    return c.json(wholeList(listTemplates(c.get('ctx'), limit).map(presentTemplate)), 200);
  });
}
