import type { ServiceContext } from '../platform/context';
import { ApiError } from '../platform/errors';
import { resolveStage } from '../resources/jobs/stages';
import { findUser } from '../resources/users/service';
import type { EventDef, FilterDef } from './catalogue';
import type { Body } from './rules';

// spec, Filters: single-event subscriptions only; each key takes one value; several keys must all
// match; a stage filter takes a key or a label and the subscription stores the key.

const bad = (key: string, message: string) =>
  new ApiError('invalid_request', message, `filters.${key}`);

function checkValue(
  ctx: ServiceContext,
  def: FilterDef,
  value: unknown,
  pipelineId: string | undefined,
): string {
  // is_appointment is a yes/no: the JSON true reads as naturally as the string.
  const text = value === true && def.key === 'is_appointment' ? 'true' : value;
  if (typeof text !== 'string' || text.trim() === '') {
    throw bad(def.key, `filters.${def.key} takes one value, as a string`);
  }
  switch (def.kind) {
    case 'stage':
      // Labels repeat across boards ("New Lead"): with a pipeline filter, the stage is that
      // board's, or the subscription could never match.
      try {
        return resolveStage(ctx, text, { pipelineId }).key;
      } catch {
        const where = pipelineId === undefined ? 'of this workspace' : 'on that pipeline';
        throw bad(def.key, `no stage ${where} has the key or label "${text}"`);
      }
    case 'pipeline':
      if (!ctx.ws.get('pipelines', text.trim().toLowerCase())) {
        throw bad(def.key, `filters.${def.key} is not a pipeline of this workspace`);
      }
      return text.trim().toLowerCase();
    case 'user':
      if (!findUser(ctx, text.trim().toLowerCase())) {
        throw bad(def.key, `filters.${def.key} is not a user of this workspace`);
      }
      return text.trim().toLowerCase();
    case 'enum':
      if (!def.values?.includes(text)) {
        throw bad(def.key, `filters.${def.key} must be one of ${def.values?.join(', ')}`);
      }
      return text;
  }
}

/** The filters of a subscription to `def`, checked, with stage labels turned into keys. */
export function checkFilters(
  ctx: ServiceContext,
  def: EventDef,
  filters: Record<string, unknown>,
): Record<string, string> {
  const out: Record<string, string> = {};
  // The pipeline first: a stage filter is read on the board it names.
  const entries = Object.entries(filters).sort(([a], [b]) =>
    a === 'pipeline_id' ? -1 : b === 'pipeline_id' ? 1 : 0,
  );
  for (const [key, value] of entries) {
    const filter = def.filters.find((f) => f.key === key);
    if (!filter) {
      const accepted = def.filters.map((f) => f.key);
      throw bad(
        key,
        accepted.length === 0
          ? `${def.event} accepts no filters`
          : `${def.event} accepts the filters ${accepted.join(', ')}`,
      );
    }
    out[key] = checkValue(ctx, filter, value, out.pipeline_id);
  }
  return Object.fromEntries(Object.keys(filters).map((key) => [key, out[key] ?? '']));
}

/** The field of the delivery a filter key reads, where the names differ. */
const READS: Record<string, string> = { assigned_to: 'assigned_to_id' };

/** Every filter must match the record (and the event's extra fields). */
export function matches(filters: Record<string, string>, view: Body): boolean {
  for (const [key, wanted] of Object.entries(filters)) {
    const value = view[READS[key] ?? key];
    if (value === null || value === undefined || String(value) !== wanted) {
      return false;
    }
  }
  return true;
}
