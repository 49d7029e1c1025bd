import type { z } from '@hono/zod-openapi';
import { shape } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';
import { type Pipeline, PipelineSchema, type Stage, StageSchema } from './schema';

export const presentStage = (stage: Stage): z.infer<typeof StageSchema> =>
  shape(StageSchema, stage, {});

/** Boards as the app shows them: the default pipeline first, then in their order. */
export function listPipelines(ctx: ServiceContext): Pipeline[] {
  return [...ctx.ws.values('pipelines')].sort(
    (a, b) => Number(b.is_default) - Number(a.is_default) || a.order - b.order,
  );
}

export function stagesOf(ctx: ServiceContext, pipelineId: string): Stage[] {
  return [...ctx.ws.values('stages')]
    .filter((stage) => stage.pipeline_id === pipelineId)
    .sort((a, b) => a.order - b.order);
}

/** spec, Lookups: every stage on every board, default pipeline first, in board order. */
export function listStages(ctx: ServiceContext): Stage[] {
  return listPipelines(ctx).flatMap((pipeline) => stagesOf(ctx, pipeline.id));
}

export function presentPipeline(
  ctx: ServiceContext,
  pipeline: Pipeline,
): z.infer<typeof PipelineSchema> {
  return shape(PipelineSchema, pipeline, {
    stages: stagesOf(ctx, pipeline.id).map(presentStage),
  });
}
