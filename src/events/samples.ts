import type { ServiceContext } from '../platform/context';
import { type Body, deletedSnapshot, type EventDef } from '../platform/family';
import { newId } from '../platform/ids';
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
  const extra = def.extras ?? {};
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
 * event could be about, as deliveries of it would carry them (a deletion carries the snapshot).
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
  const extra = def.extras ?? {};
  const identity = { id: newId(), object: def.resource };
  return (
    find(ctx, def, 1, (view) => matches(def, filters, view))[0] ??
    find(ctx, def, 1)[0] ?? {
      record: def.deleted ? deletedSnapshot(identity, def.deleted) : identity,
      extra,
      at: ctx.clock.iso(),
    }
  );
}
