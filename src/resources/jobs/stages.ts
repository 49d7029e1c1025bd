import { ApiError } from '../../platform/errors';
import type { ServiceContext } from '../../platform/service-context';
import type { Stage } from '../pipelines/api';
import { listPipelines, listStages, stagesOf } from '../pipelines/api';
import type { Job } from './schema';

const fold = (s: string) => s.trim().toLowerCase();

/**
 * spec, States and transitions: a stage is named by key or label. A key names one stage of the
 * workspace; a label may repeat across boards, so it is looked for on `prefer` (the job's own
 * pipeline) first, then the default one. Labels match in any case. With `pipelineId` the stage
 * must be on that pipeline.
 */
export function resolveStage(
  ctx: ServiceContext,
  value: string,
  opts: { pipelineId?: string | undefined; prefer?: string | undefined } = {},
): Stage {
  const stages = listStages(ctx).filter(
    (s) => opts.pipelineId === undefined || s.pipeline_id === opts.pipelineId,
  );
  const wanted = fold(value);
  const byLabel = stages.filter((s) => fold(s.label) === wanted);
  // A key as sent first; then a label, on the job's own board before the others; a key in
  // another case last, so the retail label "Completed" is not taken for the key "completed".
  const found =
    stages.find((s) => s.key === value.trim()) ??
    byLabel.find((s) => s.pipeline_id === opts.prefer) ??
    byLabel[0] ??
    stages.find((s) => fold(s.key) === wanted);
  if (!found) {
    const where = opts.pipelineId === undefined ? 'in this workspace' : 'on that pipeline';
    throw new ApiError(
      'invalid_request',
      `no stage ${where} has the key or label "${value}"`,
      'stage',
    );
  }
  return found;
}

/** The first column of a pipeline (of the default pipeline when none is named). */
export function firstStage(ctx: ServiceContext, pipelineId?: string): Stage {
  const pipeline =
    pipelineId === undefined ? listPipelines(ctx)[0] : ctx.ws.get('pipelines', pipelineId);
  const stage = pipeline && stagesOf(ctx, pipeline.id)[0];
  if (!stage) {
    throw new ApiError(
      'invalid_request',
      'pipeline_id is not a pipeline of this workspace',
      'pipeline_id',
    );
  }
  return stage;
}

export function requirePipeline(ctx: ServiceContext, id: string): void {
  if (!ctx.ws.get('pipelines', id)) {
    throw new ApiError(
      'invalid_request',
      'pipeline_id is not a pipeline of this workspace',
      'pipeline_id',
    );
  }
}

/**
 * What entering `stage` at `now` sets on a job: when it entered, and whether it is won or lost
 * (decisions.md: completed_at and lost_at describe the column the job is in now).
 */
export function enterStage(
  stage: Stage,
  now: string,
): Pick<Job, 'stage_id' | 'stage_entered_at' | 'completed_at' | 'lost_at'> {
  return {
    stage_id: stage.id,
    stage_entered_at: now,
    completed_at: stage.is_completed ? now : null,
    lost_at: stage.is_lost ? now : null,
  };
}
