import type { z } from '@hono/zod-openapi';
import type { ServiceContext } from '../../platform/context';
import type { Pipeline, PipelineSchema, Stage, StageSchema } from './schema';

export const presentStage = (stage: Stage): z.infer<typeof StageSchema> => ({
  id: stage.id,
  object: 'pipeline_stage',
  pipeline_id: stage.pipeline_id,
  key: stage.key,
  label: stage.label,
  order: stage.order,
  is_completed: stage.is_completed,
  is_lost: stage.is_lost,
});

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
  return {
    id: pipeline.id,
    object: 'pipeline',
    name: pipeline.name,
    is_default: pipeline.is_default,
    order: pipeline.order,
    stages: stagesOf(ctx, pipeline.id).map(presentStage),
  };
}
