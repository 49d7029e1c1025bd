import { badFilter, type EventDef } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';

// spec, Filters: single-event subscriptions only; each key takes one value; several keys must all
// match; a stage filter takes a key or a label and the subscription stores the key. Each filter
// checks its own value (see FilterDef.check); here the keys are checked against the event's.

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
      throw badFilter(
        key,
        accepted.length === 0
          ? `${def.event} accepts no filters`
          : `${def.event} accepts the filters ${accepted.join(', ')}`,
      );
    }
    out[key] = filter.check(ctx, value, out);
  }
  return Object.fromEntries(Object.keys(filters).map((key) => [key, out[key] ?? '']));
}
