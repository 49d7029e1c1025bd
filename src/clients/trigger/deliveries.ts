import { asRecord, sendJson } from '../scenario/http';

// What went out for the event: the workspace's subscriptions that receive it (every one, through
// the control API: a key sees only the subscriptions it made, spec Authentication 4) and their
// delivery logs since the trigger started.

export interface Subscription {
  id: string;
  event: string;
  target_url: string;
  disabled: boolean;
}

export interface SentDelivery {
  id: string;
  event_id: string;
  webhook_id: string;
  target_url: string;
  state: string;
  status_code: number | null;
  error: string | null;
}

const POLL_MS = 100;

export async function subscriptionsFor(
  origin: string,
  workspaceId: string,
  event: string,
): Promise<Subscription[]> {
  const all = await pages(
    `${origin}/__admin/webhooks?workspace_id=${encodeURIComponent(workspaceId)}`,
  );
  return all
    .map((w) => ({
      id: String(w.id),
      event: String(w.event),
      target_url: String(w.target_url),
      disabled: w.disabled_at !== null && w.disabled_at !== undefined,
    }))
    .filter((w) => w.event === event || w.event === '*');
}

/**
 * The deliveries of `event` made at or after `since` (the clock's time when the trigger began),
 * polled until each subscription has one and every one has been tried, or `waitMs` has passed.
 */
export async function deliveriesSince(
  origin: string,
  subscriptions: readonly Subscription[],
  event: string,
  since: string,
  waitMs: number,
): Promise<SentDelivery[]> {
  const deadline = Date.now() + waitMs;
  const sinceMs = Date.parse(since);
  for (;;) {
    const found: SentDelivery[] = [];
    for (const sub of subscriptions) {
      // newest first: the first page holds what this trigger made
      const log = await pages(`${origin}/__admin/webhooks/${sub.id}/deliveries`, true);
      for (const d of log) {
        if (
          d.event === event &&
          d.kind === 'event' &&
          Date.parse(String(d.created_at)) >= sinceMs
        ) {
          found.push(present(d, sub));
        }
      }
    }
    const settled =
      subscriptions.every((s) => s.disabled || found.some((d) => d.webhook_id === s.id)) &&
      found.every((d) => d.status_code !== null || d.state !== 'pending');
    if (settled || Date.now() >= deadline) {
      return found.reverse(); // the log is newest first; print in the order they were made
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function present(d: Record<string, unknown>, sub: Subscription): SentDelivery {
  const attempts = Array.isArray(d.attempts) ? d.attempts.map(asRecord) : [];
  const last = attempts[attempts.length - 1];
  return {
    id: String(d.id),
    event_id: String(d.event_id),
    webhook_id: sub.id,
    target_url: sub.target_url,
    state: String(d.state),
    status_code: typeof last?.status_code === 'number' ? last.status_code : null,
    error: typeof last?.error === 'string' ? last.error : null,
  };
}

/** Every page of a control-API list. */
async function pages(url: string, firstOnly = false): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const sep = url.includes('?') ? '&' : '?';
    const page = await sendJson(
      'GET',
      `${url}${sep}limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    if (page.status !== 200) {
      throw new Error(`GET ${url} answered ${page.status}: ${page.text.slice(0, 200)}`);
    }
    const body = asRecord(page.body);
    items.push(...(Array.isArray(body.data) ? body.data.map(asRecord) : []));
    cursor = typeof body.next_cursor === 'string' ? body.next_cursor : null;
  } while (cursor !== null && !firstOnly);
  return items;
}
