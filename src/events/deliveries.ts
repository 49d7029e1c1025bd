import { z } from '@hono/zod-openapi';
import type { EventDef } from '../platform/family';
import { timestamp } from '../platform/openapi/schemas';
import { EVENTS, familyOfEvent } from './catalogue';

// spec, Delivery body: the record's own fields at the top level, exactly as GET returns them (a
// deleted snapshot for *.deleted), then the event's fields. Each event's body is a schema of the
// document, so an integrator can generate types for what their receiver gets.

/** A delivery's own fields, for `def`. */
const eventFields = (def: EventDef) =>
  z
    .object({
      event_type: z.literal(def.event),
      event_id: z.uuid().openapi({ description: 'Also X-Service-Delivery; dedupe on it' }),
      event_at: timestamp().openapi({ description: 'When the change happened' }),
      event_workspace_id: z.uuid(),
      event_test: z.literal(true).optional().openapi({ description: 'Only on a test send' }),
    })
    .extend(def.extras?.shape ?? {});

/** What a delivery carries of its record: the record as GET returns it, or a deleted snapshot. */
function recordOf(def: EventDef): z.ZodObject {
  const schema = familyOfEvent(def.event)?.records?.schema;
  if (schema && def.deleted) {
    const kept = Object.fromEntries([...def.deleted, 'id'].map((k) => [k, true])) as Record<
      string,
      true
    >;
    return schema.pick(kept).extend({ object: z.literal(def.resource), deleted: z.literal(true) });
  }
  // A resource svc does not hold yet: its record's fields are the resource's own.
  return (
    schema ??
    z
      .looseObject({ id: z.uuid(), object: z.literal(def.resource) })
      .openapi({ additionalProperties: true })
  );
}

/** `job.stage_changed` → JobStageChangedDelivery. */
const nameOf = (event: string) =>
  `${event
    .split(/[._]/)
    .map((w) => `${w[0]?.toUpperCase()}${w.slice(1)}`)
    .join('')}Delivery`;

export interface DeliverySchema {
  def: EventDef;
  /** Its component's name in the document. */
  name: string;
  schema: z.ZodObject;
}

export const DELIVERIES: readonly DeliverySchema[] = EVENTS.map((def) => {
  const name = nameOf(def.event);
  return { def, name, schema: recordOf(def).extend(eventFields(def).shape).openapi(name) };
});
