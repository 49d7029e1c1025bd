import type { z } from '@hono/zod-openapi';
import { type Body, deletedSnapshot, type EventDef } from '../platform/family';
import { newId } from '../platform/ids';
import type { ServiceContext } from '../platform/service-context';
import { deliveryFields } from './body';
import { familyOfEvent } from './catalogue';
import { seen } from './derive';
import { matches } from './filters';

export interface Sample {
  record: Body;
  extra: Body;
  at: string;
}

/**
 * The newest records `def` could be about, at most `limit`, that also pass `keep` (which reads
 * the record as GET returns it, with the event's extra fields). Which records an event can be
 * about its declaration says (`about`), by asking the rule that raises it where it can.
 */
function find(
  ctx: ServiceContext,
  def: EventDef,
  limit: number,
  keep: (view: Body) => boolean = () => true,
): Sample[] {
  const family = familyOfEvent(def.event);
  const records = family?.records;
  const derive = family?.events?.derive;
  if (!family || !records || !derive) {
    return []; // a resource svc does not hold records of yet has nothing recent to show
  }
  const extra = def.empty;
  const shown = new Map<unknown, Body>();
  const { items } = ctx.ws.scan(records.coll, {
    limit,
    where: (rec) => {
      const body = seen(ctx, family, rec);
      if (body === undefined) {
        return false;
      }
      shown.set(rec, body);
      return (def.about?.(body, derive, def.event) ?? true) && keep({ ...body, ...extra });
    },
  });
  return items.map((rec) => {
    const body = shown.get(rec) ?? {};
    const at = String(body.updated_at ?? body.created_at ?? ctx.clock.iso());
    return { record: def.deleted ? deletedSnapshot(body, def.deleted) : body, extra, at };
  });
}

/**
 * spec, GET /webhooks/samples/{event}: up to `limit` real recent records of the workspace the
 * event could be about, as deliveries of it would carry them (a deletion, its deleted snapshot).
 */
export const sampleDeliveries = (ctx: ServiceContext, def: EventDef, limit: number): Body[] =>
  find(ctx, def, limit).map((s) =>
    deliveryFields(
      s.record,
      { event: def.event, id: newId(), at: s.at, workspaceId: ctx.workspace.id },
      s.extra,
    ),
  );

/**
 * What a test send carries: the newest record the event could be about, one that passes the
 * subscription's filters when there is one; in a workspace that has none, a record reduced to its
 * identity.
 */
export function testSample(
  ctx: ServiceContext,
  def: EventDef,
  filters: Record<string, string> = {},
): Sample {
  const now = ctx.clock.iso();
  const schema = familyOfEvent(def.event)?.records?.schema;
  const blank = schema ? blankOf(ctx, schema) : {};
  const record = { ...blank, ...def.about?.fields, id: newId(), object: def.resource };
  return (
    find(ctx, def, 1, (view) => matches(def, filters, view))[0] ??
    find(ctx, def, 1)[0] ?? {
      record: def.deleted ? deletedSnapshot(record, def.deleted) : record,
      extra: def.empty,
      at: now,
    }
  );
}

/**
 * decisions.md: a test send in a workspace with no record the event could be about carries a
 * record of the event's shape that knows nothing: null where a field may be null, [] and false,
 * its time the clock's, the schema's example for text it always has, and what the event says of
 * its record (completed for task.completed). A receiver checks its parsing against it.
 */
function blankOf(ctx: ServiceContext, schema: z.ZodObject): Body {
  const out: Body = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    out[key] = blankValue(ctx, key, field as z.ZodType);
  }
  return out;
}

function blankValue(ctx: ServiceContext, key: string, field: z.ZodType): unknown {
  const def = field._zod.def as { type: string; values?: unknown[] };
  switch (def.type) {
    case 'nullable':
      return null;
    case 'array':
      return [];
    case 'boolean':
      return false;
    case 'number':
      return 0;
    case 'literal':
      return def.values?.[0];
  }
  const format = (field as { format?: string | null }).format;
  if (format === 'uuid') {
    return newId();
  }
  if (format === 'url' || key === 'url' || key.endsWith('_url')) {
    return `${ctx.appUrl}/test`;
  }
  if (key.endsWith('_at')) {
    return ctx.clock.iso();
  }
  // Text a record always has: the example its schema gives (insurance, homeowner, ...).
  return (field.meta() as { example?: unknown } | undefined)?.example ?? '';
}
