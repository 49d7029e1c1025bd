import {
  deliveryBody,
  eventDef,
  familyOfColl,
  familyOfEvent,
  matches,
  occurrencesOf,
} from '../events';
import { type Body, type Occurrence, WILDCARD } from '../platform/family';
import { newId } from '../platform/ids';
import type { Runtime, RuntimeBase } from '../platform/runtime';
import { appContext, type ServiceContext } from '../platform/service-context';
import type { Webhook } from '../resources';
import { GLOBAL, type TxScope, type WorkspaceCollections } from '../store';
import { MAX_ATTEMPTS } from './policy';
import type { Delivery, DeliveryKind, EventRecord } from './records';

// DESIGN, Architecture: change feed -> event deriver -> outbox. The deliveries a change raises
// are written in the transaction that makes the change, so a change that is acknowledged has its
// deliveries on disk with it, and a change that fails raises nothing.

type Ws = TxScope<WorkspaceCollections>;

/** The subscriptions that hear `event`: live, to it or to every event. */
const listening = (hooks: readonly Webhook[], event: string) =>
  hooks.filter((h) => h.disabled_at === null && (h.event === event || h.event === WILDCARD));

export function putEvent(
  ws: Ws,
  fields: { id: string; event: string; at: string; recordId: string | null; body: string },
): EventRecord {
  return ws.put('webhook_events', {
    id: fields.id,
    object: 'event',
    event: fields.event,
    event_at: fields.at,
    record_id: fields.recordId,
    body: fields.body,
    created_at: fields.at,
  });
}

export function putDelivery(
  ws: Ws,
  hook: Webhook,
  event: EventRecord,
  now: string,
  kind: DeliveryKind = 'event',
  resendOf: string | null = null,
): Delivery {
  return ws.put('deliveries', {
    id: newId(),
    object: 'delivery',
    webhook_id: hook.id,
    event_id: event.id,
    event: event.event,
    kind,
    resend_of: resendOf,
    state: 'pending',
    attempts: [],
    // A resend or a test goes once, at once, and its caller waits for it.
    max_attempts: kind === 'event' ? MAX_ATTEMPTS : 1,
    next_attempt_at: kind === 'event' ? now : null,
    created_at: now,
    updated_at: now,
  });
}

/** Writes the event and one delivery per subscription whose filters it matches. */
function fanOut(
  ws: Ws,
  hooks: readonly Webhook[],
  occ: Pick<Occurrence, 'event' | 'recordId' | 'record' | 'extra' | 'match'>,
  at: string,
  now: string,
  id: string,
): void {
  const def = eventDef(occ.event);
  const matched = def ? hooks.filter((h) => matches(def, h.filters, occ.match)) : [];
  if (matched.length === 0) {
    return;
  }
  const event = putEvent(ws, {
    id,
    event: occ.event,
    at,
    recordId: occ.recordId,
    body: deliveryBody(occ.record, { event: occ.event, id, at, workspaceId: ws.scope }, occ.extra),
  });
  for (const hook of matched) {
    putDelivery(ws, hook, event, now);
  }
}

export interface OutboxOptions {
  coalesceMs: number;
}

/** The context events are rendered in: the workspace as the app sees it, URLs on the server's. */
const eventContext = (rt: RuntimeBase, wsId: string): ServiceContext =>
  appContext(rt, wsId, rt.config.publicUrl);

/** Runs inside every commit: the changes' events become deliveries in the same transaction. */
export function deriveDeliveries(rt: Runtime): void {
  rt.store.onCommit((changes, tx) => {
    if (tx.quiet) {
      return;
    }
    const hooksOf = new Map<string, Webhook[]>();
    for (const change of changes) {
      const family = change.scope === GLOBAL ? undefined : familyOfColl(change.coll);
      if (family === undefined) {
        continue;
      }
      const ws = tx.workspace(change.scope);
      let hooks = hooksOf.get(change.scope);
      if (hooks === undefined) {
        // Most workspaces have no subscriptions: then a change costs nothing more.
        hooks = rt.store.count(change.scope, 'webhooks') === 0 ? [] : ws.all('webhooks');
        hooksOf.set(change.scope, hooks);
      }
      if (hooks.length === 0 || !rt.store.global.get('workspaces', change.scope)) {
        continue;
      }
      const ctx = eventContext(rt, change.scope);
      const now = ctx.clock.iso();
      for (const occ of occurrencesOf(ctx, family, change.before, change.after)) {
        const targets = listening(hooks, occ.event);
        if (targets.length === 0) {
          continue;
        }
        if (occ.changed) {
          holdUpdate(ws, occ, occ.changed, now, rt.config.webhookCoalesceMs);
        } else {
          // A deleted snapshot has no updated_at: the deletion happened now.
          fanOut(ws, targets, occ, String(occ.record.updated_at ?? now), now, newId());
        }
      }
    }
  });
}

/** spec, job.updated: quick edits to one record coalesce into one delivery. */
function holdUpdate(
  ws: Ws,
  occ: Occurrence,
  changed: string[],
  now: string,
  windowMs: number,
): void {
  const id = `${occ.event}:${occ.recordId}`;
  const held = ws.get('pending_updates', id);
  ws.put('pending_updates', {
    id,
    object: 'pending_update',
    event: occ.event,
    record_id: occ.recordId,
    event_id: held?.event_id ?? newId(),
    changed_fields: [...new Set([...(held?.changed_fields ?? []), ...changed])],
    last_at: String(occ.record.updated_at ?? now),
    // The window opens with the first edit, so a record edited without pause still goes out.
    due_at: held?.due_at ?? new Date(Date.parse(now) + windowMs).toISOString(),
  });
}

/**
 * The window is over: one delivery per matching subscription, carrying every field that changed
 * and the record as it is now. A record deleted meanwhile has its deletion to say instead.
 */
export function flushUpdate(rt: RuntimeBase, wsId: string, id: string): void {
  if (!rt.store.global.get('workspaces', wsId)) {
    return;
  }
  rt.store.transaction((tx) => {
    const ws = tx.workspace(wsId);
    const held = ws.get('pending_updates', id);
    if (!held) {
      return;
    }
    ws.delete('pending_updates', id);
    const records = familyOfEvent(held.event)?.records;
    const ctx = eventContext(rt, wsId);
    const rec = records && ctx.ws.get(records.coll, held.record_id);
    if (!records || !rec || !records.visible(ctx, rec)) {
      return;
    }
    const record = records.present(ctx, rec) as Body;
    const extra = { changed_fields: held.changed_fields };
    fanOut(
      ws,
      listening(ws.all('webhooks'), held.event),
      {
        event: held.event,
        recordId: held.record_id,
        record,
        extra,
        match: Object.assign({}, record, extra), // not spread: see store Template
      },
      held.last_at,
      ctx.clock.iso(),
      held.event_id,
    );
  });
}
