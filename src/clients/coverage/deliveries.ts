import type { Delivery, Subscription } from './entries';
import { bump, type EventRow } from './report';

const WILDCARD = '*';

/** The events delivered, in the document's order (others after, by name), and how they went. */
export function tallyEvents(
  catalogue: readonly string[],
  deliveries: readonly Delivery[],
): EventRow[] {
  const rows = new Map<string, EventRow>();
  for (const d of deliveries) {
    let row = rows.get(d.event);
    if (!row) {
      row = { event: d.event, deliveries: 0, statuses: {}, states: {}, retried: 0, faulted: 0 };
      rows.set(d.event, row);
    }
    row.deliveries += 1;
    bump(row.states, d.state);
    row.retried += d.attempts.length > 1 ? 1 : 0;
    for (const attempt of d.attempts) {
      // decisions.md, svc coverage: no answer (a time-out, a refused connection) is "0", as the
      // request log writes a dropped call.
      bump(row.statuses, String(attempt.status_code ?? 0));
      row.faulted += attempt.fault === undefined ? 0 : 1;
    }
  }
  return [...rows.values()].sort((a, b) => order(catalogue, a.event, b.event));
}

/** Events subscribed to (a `*` subscription: all of them) with no delivery. */
export function neverDelivered(
  catalogue: readonly string[],
  subscriptions: readonly Subscription[],
  delivered: readonly EventRow[],
): string[] {
  const wanted = new Set<string>();
  for (const s of subscriptions) {
    for (const event of s.event === WILDCARD ? catalogue : [s.event]) {
      wanted.add(event);
    }
  }
  for (const row of delivered) {
    wanted.delete(row.event);
  }
  return [...wanted].sort((a, b) => order(catalogue, a, b));
}

function order(catalogue: readonly string[], a: string, b: string): number {
  const rank = (e: string) => {
    const i = catalogue.indexOf(e);
    return i === -1 ? catalogue.length : i;
  };
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}
