import { badFilter, type FilterDef, filterText } from '../../platform/family';
import { listStages } from '../pipelines/api';
import { resolveStage } from './stages';

// spec, Filters: a stage filter takes a key or a label and the subscription stores the key; a
// pipeline filter takes a pipeline id of the workspace.

/** A stage filter, read on the board a pipeline filter beside it names (labels repeat). */
export const stageFilter = (key: string, label: string): FilterDef => ({
  key,
  label,
  kind: 'stage',
  values: (ctx) => listStages(ctx).map((s) => s.key),
  check: (ctx, value, chosen) => {
    const text = filterText(key, value);
    const pipelineId = chosen.pipeline_id;
    try {
      return resolveStage(ctx, text, { pipelineId }).key;
    } catch {
      const where = pipelineId === undefined ? 'of this workspace' : 'on that pipeline';
      throw badFilter(key, `no stage ${where} has the key or label "${text}"`);
    }
  },
});

export const pipelineFilter = (key: string, label: string): FilterDef => ({
  key,
  label,
  kind: 'pipeline',
  check: (ctx, value) => {
    const id = filterText(key, value).trim().toLowerCase();
    if (!ctx.ws.get('pipelines', id)) {
      throw badFilter(key, `filters.${key} is not a pipeline of this workspace`);
    }
    return id;
  },
});
