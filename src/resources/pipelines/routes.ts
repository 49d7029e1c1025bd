import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import { baseErrors, errorResponses, jsonResponse } from '../../platform/openapi/responses';
import { listOf } from '../../platform/openapi/schemas';
import { wholeList } from '../../platform/paging';
import { PipelineSchema, StageSchema } from './schema';
import { listPipelines, listStages, presentPipeline, presentStage } from './service';

const pipelines = createRoute({
  method: 'get',
  path: '/pipelines',
  operationId: 'listPipelines',
  summary: 'Pipelines with their stages nested',
  tags: ['Lookups'],
  responses: {
    200: jsonResponse(listOf(PipelineSchema, 'PipelineList'), 'Every pipeline, default first'),
    ...errorResponses(...baseErrors),
  },
});

const stages = (path: string) =>
  createRoute({
    method: 'get',
    path,
    operationId: path === '/stages' ? 'listStages' : 'listPipelineStages',
    summary:
      path === '/stages'
        ? 'Every stage on every board, default pipeline first, in board order'
        : 'Alias of /stages',
    tags: ['Lookups'],
    responses: {
      200: jsonResponse(listOf(StageSchema, 'PipelineStageList'), 'Every stage'),
      ...errorResponses(...baseErrors),
    },
  });

export function pipelineRoutes() {
  const app = new OpenAPIHono<AppEnv>();
  app.openapi(pipelines, (c) => {
    const ctx = c.get('ctx');
    return c.json(wholeList(listPipelines(ctx).map((p) => presentPipeline(ctx, p))), 200);
  });
  for (const path of ['/stages', '/pipeline_stages']) {
    app.openapi(stages(path), (c) =>
      c.json(wholeList(listStages(c.get('ctx')).map(presentStage)), 200),
    );
  }
  return app;
}
