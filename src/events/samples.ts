import type { ServiceContext } from '../context';
import { newId } from '../platform/ids';
import type { EventDef } from './catalogue';
import { type Body, deletedSnapshot, EMPTY_EXTRAS, sourceFor } from './rules';

export interface Sample {
  record: Body;
  extra: Body;
  at: string;
}

/**
 * spec, GET /webhooks/samples/{event}: up to `limit` real recent records of the workspace, as
 * that event would carry them (a deletion carries the snapshot). Newest first.
 */
export function samplesOf(ctx: ServiceContext, def: EventDef, limit: number): Sample[] {
  const source = sourceFor(def.resource);
  if (!source) {
    return []; // a resource svc does not hold records of yet has nothing recent to show
  }
  const { items } = ctx.ws.scan(source.coll, { limit, where: (rec) => source.live(ctx, rec) });
  const extra = EMPTY_EXTRAS[def.event] ?? {};
  return items.map((rec) => {
    const presented = source.present(ctx, rec);
    const at = String(presented.updated_at ?? presented.created_at ?? ctx.clock.iso());
    return { record: deletedSnapshot(def.event, presented) ?? presented, extra, at };
  });
}

/**
 * What a test send carries: the newest record the event could be about, or, in a workspace that
 * has none, a record reduced to its identity.
 */
export function testSample(ctx: ServiceContext, def: EventDef): Sample {
  return (
    samplesOf(ctx, def, 1)[0] ?? {
      record: { id: newId(), object: def.resource },
      extra: EMPTY_EXTRAS[def.event] ?? {},
      at: ctx.clock.iso(),
    }
  );
}
