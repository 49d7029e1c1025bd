import type { ServiceContext } from '../platform/context';
import { newId } from '../platform/ids';
import type { Rec } from '../store';
import type { EventDef } from './catalogue';
import { matches } from './filters';
import { type AnySource, type Body, deletedSnapshot, EMPTY_EXTRAS, sourceFor } from './rules';

export interface Sample {
  record: Body;
  extra: Body;
  at: string;
}

/** Whether a record (`rec` as stored, `body` as GET returns it) is one `event` could be about. */
type About = (
  ctx: ServiceContext,
  source: AnySource,
  event: string,
  rec: Rec,
  body: Body,
) => boolean;

/**
 * Asks the rule that raises the event (rules.ts) rather than restating it: would the change
 * from `before(rec)` to `rec` raise it? The record coming in (`before` gives nothing) answers
 * for the creations; a field moving to its value answers for completed and assigned.
 */
const raisedFrom =
  (before: (rec: Rec) => Rec | undefined): About =>
  (ctx, source, event, rec) =>
    source.derive(ctx, before(rec), rec).some((o) => o.event === event);

const comingIn = raisedFrom(() => undefined);

/** Events no rule raises yet (status moves come with their services): the state they leave. */
const field =
  (key: string, ...values: unknown[]): About =>
  (_ctx, _source, _event, _rec, body) =>
    values.includes(body[key]);
const hasValue =
  (key: string): About =>
  (_ctx, _source, _event, _rec, body) =>
    body[key] !== null && body[key] !== undefined;

// Every other event (updated, deleted, stage_changed, pin.created) can be about any live record.
const ABOUT: Readonly<Record<string, About>> = {
  'job.created': comingIn,
  'job.assigned': raisedFrom((rec) => ({ ...rec, assigned_to_id: null })),
  'contact.created': comingIn,
  'task.created': comingIn,
  'task.completed': raisedFrom((rec) => ({ ...rec, completed: false })),
  'appointment.created': comingIn,
  'estimate.created': comingIn,
  'estimate.sent': field('status', 'sent'),
  'estimate.viewed': field('status', 'viewed'),
  'estimate.signed': field('status', 'signed'),
  'estimate.declined': field('status', 'declined'),
  'invoice.created': comingIn,
  'invoice.sent': field('status', 'sent'),
  'invoice.paid': field('status', 'paid'),
  'invoice.overdue': field('status', 'overdue'),
  'invoice.voided': field('status', 'void'),
  'payment.received': comingIn,
  'payment.refunded': field('is_refund', true),
  'note.created': comingIn,
  'file.created': comingIn,
  'pin.result_changed': hasValue('knock_result'),
  'storm_list.ready': field('status', 'ready', 'partial'),
};

/**
 * The newest records `def` could be about, at most `limit`, that also pass `keep` (which reads
 * the record as GET returns it, with the event's extra fields).
 */
function find(
  ctx: ServiceContext,
  def: EventDef,
  limit: number,
  keep: (view: Body) => boolean = () => true,
): Sample[] {
  const source = sourceFor(def.resource);
  if (!source) {
    return []; // a resource svc does not hold records of yet has nothing recent to show
  }
  const about = ABOUT[def.event];
  const extra = EMPTY_EXTRAS[def.event] ?? {};
  const { items } = ctx.ws.scan(source.coll, {
    limit,
    where: (rec) => {
      if (!source.live(ctx, rec)) {
        return false;
      }
      const body = source.present(ctx, rec);
      return (
        (about === undefined || about(ctx, source, def.event, rec, body)) &&
        keep({ ...body, ...extra })
      );
    },
  });
  return items.map((rec) => {
    const presented = source.present(ctx, rec);
    const at = String(presented.updated_at ?? presented.created_at ?? ctx.clock.iso());
    return { record: deletedSnapshot(def.event, presented) ?? presented, extra, at };
  });
}

/**
 * spec, GET /webhooks/samples/{event}: up to `limit` real recent records of the workspace the
 * event could be about, as it would carry them (a deletion carries the snapshot). Newest first.
 */
export const samplesOf = (ctx: ServiceContext, def: EventDef, limit: number): Sample[] =>
  find(ctx, def, limit);

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
  const extra = EMPTY_EXTRAS[def.event] ?? {};
  const identity = { id: newId(), object: def.resource };
  return (
    find(ctx, def, 1, (view) => matches(filters, view))[0] ??
    find(ctx, def, 1)[0] ?? {
      record: deletedSnapshot(def.event, identity) ?? identity,
      extra,
      at: ctx.clock.iso(),
    }
  );
}
