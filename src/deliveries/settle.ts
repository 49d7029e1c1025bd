import { newId } from '../platform/ids';
import type { RuntimeBase } from '../platform/runtime';
import { type AttemptResult, afterAttempt, type Webhook } from '../resources';
import type { TxScope, WorkspaceCollections } from '../store';
import { outcomeOf, retryDelayMs } from './policy';
import { type Attempt, type Delivery, isOpen } from './records';
import type { Result } from './send';

// What an attempt's outcome writes, in one transaction: the attempt logged on its delivery, the
// delivery settled or its retry scheduled, and its subscription's count of failures kept, which
// may switch it off (telling the owners and admins) or, on a 410, delete it.

type Ws = TxScope<WorkspaceCollections>;

/** Attempt `sent.n` of delivery `id` came back with `sent.result`: written, whatever happened meanwhile. */
export function settleAttempt(
  rt: RuntimeBase,
  wsId: string,
  id: string,
  sent: { n: number; at: string; result: Result },
): Delivery | undefined {
  const clock = rt.clocks.of(wsId);
  return rt.store.transaction((tx) => {
    const ws = tx.workspace(wsId);
    const d = ws.get('deliveries', id);
    if (!d) {
      return undefined;
    }
    const now = clock.iso();
    const { result } = sent;
    const attempt: Attempt = {
      n: sent.n,
      at: sent.at,
      status_code: result.status,
      duration_ms: result.durationMs,
      error: result.error,
      response_snippet: result.snippet,
      ...(result.fault === undefined ? {} : { fault: result.fault }),
      ...(result.signature === undefined ? {} : { signature: result.signature }),
    };
    const outcome = outcomeOf(result);
    const failed = outcome === 'retry' || outcome === 'stop';
    const retry = outcome === 'retry' && sent.n < d.max_attempts;
    const next: Delivery = {
      ...d,
      attempts: [...d.attempts, attempt],
      // Cancelled meanwhile (the subscription went): the attempt is logged, nothing more.
      state: !isOpen(d) ? d.state : !failed ? 'succeeded' : retry ? 'retrying' : 'failed',
      // The wait runs from when the failed attempt went out.
      next_attempt_at:
        isOpen(d) && retry
          ? new Date(Date.parse(sent.at) + retryDelayMs(sent.n)).toISOString()
          : null,
      updated_at: now,
    };
    ws.put('deliveries', next);
    const hook = ws.get('webhooks', d.webhook_id);
    if (hook) {
      const result: AttemptResult = outcome === 'gone' ? 'gone' : failed ? 'failed' : 'succeeded';
      applyAttempt(ws, hook, result, now);
    }
    // The change to the subscription may have cancelled this delivery's siblings, not it.
    return ws.get('deliveries', id);
  });
}

/** What an attempt makes of its subscription (see afterAttempt): kept, counted, off or deleted. */
function applyAttempt(ws: Ws, hook: Webhook, result: AttemptResult, now: string): void {
  const after = afterAttempt(hook, result, now);
  if (after.hook === null) {
    ws.delete('webhooks', hook.id);
  } else if (after.hook !== hook) {
    ws.put('webhooks', after.hook);
  }
  if (after.switchedOff) {
    // spec: the workspace's owners and admins are told.
    const people = ws.all('users').filter((u) => u.role === 'owner' || u.role === 'admin');
    ws.put('notifications', {
      id: newId(),
      object: 'notification',
      kind: 'webhook_disabled',
      webhook_id: hook.id,
      user_ids: people.map((u) => u.id),
      message: `The webhook to ${hook.target_url} (${hook.event}) was switched off after ${after.hook?.consecutive_failures} consecutive failed deliveries.`,
      created_at: now,
    });
  }
}

/** Delivery `id` cancelled if it is still open (its subscription went, or was switched off). */
export function cancelOpen(rt: RuntimeBase, wsId: string, id: string): Delivery | undefined {
  return rt.store.transaction((tx) => {
    const ws = tx.workspace(wsId);
    const d = ws.get('deliveries', id);
    return d && isOpen(d) ? cancelDelivery(ws, d, rt.clocks.of(wsId).iso()) : d;
  });
}

export function cancelDelivery(ws: Ws, d: Delivery, now: string): Delivery {
  return ws.put('deliveries', { ...d, state: 'cancelled', next_attempt_at: null, updated_at: now });
}
