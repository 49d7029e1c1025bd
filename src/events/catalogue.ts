import type { z } from '@hono/zod-openapi';
import type { EventDef, Family } from '../platform/family';
import { FAMILIES } from '../resources';

// spec, Events: the catalogue is what the families declare, in the registry's order. GET /events,
// POST /webhooks, the deriver and the samples all read this one table, so they cannot disagree.

interface Entry {
  def: EventDef;
  family: Family;
}

const entries: Entry[] = FAMILIES.flatMap((family) => {
  const events = family.events;
  return events
    ? events.decls.map((decl) => ({
        def: {
          ...decl,
          resource: events.resource,
          filters: decl.filters ?? [],
          empty: decl.extras ? emptyOf(decl.extras) : {},
        },
        family,
      }))
    : [];
});

export const EVENTS: readonly EventDef[] = entries.map((e) => e.def);

const byName = new Map(entries.map((e) => [e.def.event, e]));

export const eventDef = (name: string): EventDef | undefined => byName.get(name)?.def;

/** The family whose records an event carries. */
export const familyOfEvent = (name: string): Family | undefined => byName.get(name)?.family;

const byColl = new Map(
  FAMILIES.flatMap((f) => (f.records && f.events ? [[f.records.coll as string, f] as const] : [])),
);

/** The family whose records are in `coll`, when its changes raise events. */
export const familyOfColl = (coll: string): Family | undefined => byColl.get(coll);

/** An event's extra fields at their empty values: null where a field takes it, else []. */
function emptyOf(extras: z.ZodObject): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(extras.shape).map(([key, field]) => [
      key,
      (field as z.ZodType).safeParse(null).success ? null : [],
    ]),
  );
}
