import type { RuntimeBase } from '../platform/runtime';
import { validSecrets } from '../resources';
import { isOpen } from './records';
import type { Outgoing } from './send';

/**
 * What delivery `id` sends if it goes now, signed with the secrets valid now; nothing once it is
 * settled or cancelled, its subscription or event is gone, or (for an event) switched off.
 */
export function outgoing(rt: RuntimeBase, wsId: string, id: string): Outgoing | undefined {
  const ws = rt.store.workspace(wsId);
  const d = ws.get('deliveries', id);
  const hook = d && ws.get('webhooks', d.webhook_id);
  const event = d && ws.get('webhook_events', d.event_id);
  if (!d || !isOpen(d) || !hook || !event || (hook.disabled_at !== null && d.kind === 'event')) {
    return undefined;
  }
  return {
    url: hook.target_url,
    body: event.body,
    event: event.event,
    eventId: event.id,
    webhookId: hook.id,
    attempt: d.attempts.length + 1,
    secrets: validSecrets(hook, rt.clocks.of(wsId).nowMs()).map((s) => s.secret),
  };
}
