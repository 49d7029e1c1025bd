import type { RuntimeBase } from '../platform/runtime';
import { leased } from '../store/held';
import { isOpen } from './records';

// decisions.md: the delivery log keeps settled deliveries 30 days, on each workspace's clock;
// their events go with the last delivery that names them.

export const DAY = 24 * 60 * 60 * 1000;
const KEEP_MS = 30 * DAY;

/** Every workspace in memory swept; one away from memory (PostgreSQL) is swept as it is loaded. */
export function sweep(rt: RuntimeBase): void {
  for (const ws of rt.store.global.values('workspaces')) {
    if (!rt.store.isAway(ws.id)) {
      sweepWorkspace(rt, ws.id);
    }
  }
}

/** The settled deliveries of one workspace past KEEP_MS on its clock, and their events, go. */
export function sweepWorkspace(rt: RuntimeBase, wsId: string): void {
  if (rt.store.isAway(wsId)) {
    return; // swept as it is loaded (another node moved its clock, say)
  }
  const cutoff = rt.clocks.of(wsId).nowMs() - KEEP_MS;
  const scoped = rt.store.workspace(wsId);
  const old = [...scoped.values('deliveries')].filter(
    (d) => !isOpen(d) && Date.parse(d.updated_at) < cutoff,
  );
  if (old.length === 0) {
    return;
  }
  const cluster = rt.store.cluster;
  if (cluster && !cluster.mayWrite(wsId, false)) {
    // Several nodes: swept under the workspace's lease, on it as the last node left it.
    void leased(rt.store, [wsId], () => sweepWorkspace(rt, wsId)).catch(() => undefined);
    return;
  }
  rt.store.transaction((tx) => {
    const w = tx.workspace(wsId);
    for (const d of old) {
      w.delete('deliveries', d.id);
    }
    const referenced = new Set([...w.all('deliveries')].map((d) => d.event_id));
    for (const e of w.all('webhook_events')) {
      if (!referenced.has(e.id) && Date.parse(e.created_at) < cutoff) {
        w.delete('webhook_events', e.id);
      }
    }
  });
}
