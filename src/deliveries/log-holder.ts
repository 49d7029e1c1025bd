import type { Store } from '../store';
import type { Delivery } from './records';

/**
 * The workspace whose subscription `webhookId` is, or was: the one holding it, else the one
 * holding its deliveries (a deleted subscription's log outlives it, decisions.md).
 */
export function logHolderOf(store: Store, webhookId: string): string | undefined {
  const mine = (d: Delivery) => d.webhook_id === webhookId;
  for (const ws of store.global.values('workspaces')) {
    if (store.isAway(ws.id)) {
      continue; // the door loaded the one holding the log, by the subscription's id
    }
    const scoped = store.workspace(ws.id);
    if (
      scoped.get('webhooks', webhookId) !== undefined ||
      scoped.scan('deliveries', { where: mine, limit: 1 }).items.length > 0
    ) {
      return ws.id;
    }
  }
  return undefined;
}
