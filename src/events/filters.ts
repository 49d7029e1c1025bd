import type { Body, EventDef } from '../platform/family';

/** spec, Filters 2: every filter of a subscription must match the record and the event's fields. */
export function matches(def: EventDef, filters: Record<string, string>, view: Body): boolean {
  for (const [key, wanted] of Object.entries(filters)) {
    const field = def.filters.find((f) => f.key === key)?.field ?? key;
    const value = view[field];
    if (value === null || value === undefined || String(value) !== wanted) {
      return false;
    }
  }
  return true;
}
