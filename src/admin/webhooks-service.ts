import { logHolderOf } from '../deliveries/log-holder';
import { putDelivery, putEvent } from '../deliveries/outbox';
import type { Delivery, Notification } from '../deliveries/records';
import { deliveryBody, eventDef, testSample } from '../events';
import { ApiError } from '../platform/errors';
import { WILDCARD } from '../platform/family';
import { holderOf } from '../platform/holder-of';
import { whileHeld } from '../platform/http/residency';
import { newId, randomToken } from '../platform/ids';
import type { Deliveries, Runtime } from '../platform/runtime';
import { appContext } from '../platform/service-context';
import { ROTATION_OVERLAP_MS, rollSecret, type Webhook } from '../resources/webhooks/records';
import { SECRET_PREFIX } from '../resources/webhooks/service';
import type { Position, WorkspaceCollections } from '../store';
import type { Page } from './paging';

// What the workspace settings let owners and admins do with a subscription (spec, Receiver
// responses: view the delivery log, resend, send a signed test, rotate the secret, re-enable).

interface Found<T> {
  workspaceId: string;
  record: T;
}

export function findWebhook(rt: Runtime, id: string): Found<Webhook> {
  const found = holderOf(rt.store, 'webhooks', id);
  if (!found) {
    throw new ApiError('not_found', 'no such webhook');
  }
  return found;
}

/**
 * A page of one collection across workspaces (or of one), newest first, with their workspace:
 * each workspace's own page after `after`, merged, so no more than `limit` a workspace is read.
 */
function across<K extends 'webhooks' | 'notifications'>(
  rt: Runtime,
  coll: K,
  workspaceId: string | undefined,
  after: Position | undefined,
  limit: number,
): Page<Found<WorkspaceCollections[K]>> {
  const out: Found<WorkspaceCollections[K]>[] = [];
  let more = false;
  for (const ws of rt.store.global.values('workspaces')) {
    if ((workspaceId === undefined || ws.id === workspaceId) && !rt.store.isAway(ws.id)) {
      const page = rt.store.workspace(ws.id).scan(coll, { after, limit });
      more ||= page.hasMore;
      for (const record of page.items) {
        out.push({ workspaceId: ws.id, record });
      }
    }
  }
  out.sort((a, b) => newestFirst(a.record, b.record));
  return { items: out.slice(0, limit), hasMore: more || out.length > limit };
}

/** The store's own order, created_at then id, compared as it compares them, newest first. */
const newestFirst = (
  a: { created_at: string; id: string },
  b: { created_at: string; id: string },
) => compare(b.created_at, a.created_at) || compare(b.id, a.id);
const compare = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/**
 * Runs `list` with the workspaces it reads in memory: on PostgreSQL, a list of every workspace's
 * loads each of them (a named one was loaded by the request's door).
 */
export async function acrossHeld<T>(
  rt: Runtime,
  workspaceId: string | undefined,
  list: () => T,
): Promise<T> {
  const residency = rt.store.residency;
  if (residency === undefined || workspaceId !== undefined) {
    return list();
  }
  return whileHeld(residency.holdAll(rt.store.scopes()), async () => list());
}

export const listAllWebhooks = (
  rt: Runtime,
  workspaceId: string | undefined,
  after: Position | undefined,
  limit: number,
): Page<Found<Webhook>> => across(rt, 'webhooks', workspaceId, after, limit);

export const notifications = (
  rt: Runtime,
  workspaceId: string | undefined,
  after: Position | undefined,
  limit: number,
): Page<Found<Notification>> => across(rt, 'notifications', workspaceId, after, limit);

/** A page of the log of a subscription, newest first; the log outlives a deleted subscription. */
export function deliveryLog(
  rt: Runtime,
  webhookId: string,
  after: Position | undefined,
  limit: number,
): Page<Delivery> {
  const holder = logHolderOf(rt.store, webhookId);
  if (holder !== undefined) {
    const mine = (d: Delivery) => d.webhook_id === webhookId;
    return rt.store.workspace(holder).scan('deliveries', { after, where: mine, limit });
  }
  throw new ApiError('not_found', 'no such webhook');
}

/** spec: a resend carries the same event_id, and the same bytes. */
export function resend(rt: Runtime, worker: Deliveries, id: string): Promise<Delivery> {
  const found = holderOf(rt.store, 'deliveries', id);
  if (!found) {
    throw new ApiError('not_found', 'no such delivery');
  }
  const { workspaceId, record: original } = found;
  const ws = rt.store.workspace(workspaceId);
  const hook = ws.get('webhooks', original.webhook_id);
  const event = ws.get('webhook_events', original.event_id);
  if (!hook) {
    throw new ApiError('not_found', 'the subscription of this delivery was deleted');
  }
  if (!event) {
    throw new ApiError('not_found', 'this delivery is older than the delivery log keeps');
  }
  return worker.sendOnce(workspaceId, (tx, now) =>
    putDelivery(tx, hook, event, now, 'resend', original.id),
  );
}

/** A signed send with `event_test: true`, of the subscription's event (`*`: job.created). */
export function sendTest(
  rt: Runtime,
  worker: Deliveries,
  id: string,
  eventName: string | undefined,
): Promise<Delivery> {
  const { workspaceId, record: hook } = findWebhook(rt, id);
  const name = eventName ?? (hook.event === WILDCARD ? 'job.created' : hook.event);
  const def = eventDef(name);
  if (!def) {
    throw new ApiError('invalid_request', `"${name}" is not an event`, 'event');
  }
  if (hook.event !== WILDCARD && hook.event !== def.event) {
    throw new ApiError('invalid_request', `this subscription is to ${hook.event}`, 'event');
  }
  const ctx = appContext(rt, workspaceId, rt.config.publicUrl);
  // A filtered subscription is tested with a record it would really receive, when there is one.
  const sample = testSample(ctx, def, hook.filters);
  return worker.sendOnce(workspaceId, (tx, now) => {
    const eventId = newId();
    const event = putEvent(tx, {
      id: eventId,
      event: def.event,
      at: now,
      recordId: typeof sample.record.id === 'string' ? sample.record.id : null,
      body: deliveryBody(
        sample.record,
        { event: def.event, id: eventId, at: now, workspaceId, test: true },
        sample.extra,
      ),
    });
    return putDelivery(tx, hook, event, now, 'test');
  });
}

/**
 * spec, Signature verification 2: after a rotation the new and the old secret both sign for 24
 * hours. Subscriptions made together share their secret, so they rotate together.
 */
export function rotateSecret(
  rt: Runtime,
  id: string,
): { secret: string; previousExpiresAt: string; hooks: Webhook[] } {
  const { workspaceId, record } = findWebhook(rt, id);
  const secret = randomToken(SECRET_PREFIX, 32);
  const clock = rt.clocks.of(workspaceId);
  const now = clock.nowMs();
  const hooks = rt.store.transaction((tx) => {
    const ws = tx.workspace(workspaceId);
    return ws
      .all('webhooks')
      .filter((h) => h.group_id === record.group_id)
      .map((h) =>
        ws.put('webhooks', {
          ...h,
          secrets: rollSecret(h, secret, now),
          updated_at: clock.isoOf(now),
        }),
      );
  });
  return { secret, previousExpiresAt: new Date(now + ROTATION_OVERLAP_MS).toISOString(), hooks };
}

export function enable(rt: Runtime, id: string): Found<Webhook> {
  const { workspaceId } = findWebhook(rt, id);
  const record = rt.store.transaction((tx) => {
    const ws = tx.workspace(workspaceId);
    const hook = ws.get('webhooks', id) as Webhook;
    return ws.put('webhooks', {
      ...hook,
      disabled_at: null,
      consecutive_failures: 0,
      updated_at: rt.clocks.of(workspaceId).iso(),
    });
  });
  return { workspaceId, record };
}
