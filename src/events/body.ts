import type { Body } from '../platform/family';

export interface EventMeta {
  event: string;
  id: string;
  at: string;
  workspaceId: string;
  test?: boolean;
}

/**
 * spec, Delivery body: the record's own fields at the top level, then the event's. Assigned, not
 * spread: keys added after a spread cost a hidden class each (store Template).
 */
export const deliveryFields = (record: Body, event: EventMeta, extra: Body): Body =>
  Object.assign(
    {},
    record,
    {
      event_type: event.event,
      event_id: event.id,
      event_at: event.at,
      event_workspace_id: event.workspaceId,
    },
    event.test ? { event_test: true } : {},
    extra,
  );

/** The body as sent and signed: kept as this exact string for every attempt. */
export const deliveryBody = (record: Body, event: EventMeta, extra: Body): string =>
  JSON.stringify(deliveryFields(record, event, extra));
