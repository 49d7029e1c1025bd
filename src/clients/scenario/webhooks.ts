import { verifySignature } from '../listen/signature';
import { type Answer, asRecord, sendJson } from './http';
import { type Mismatch, match, matchHeader } from './matchers';
import type { Inbox, Received } from './receiver';
import type { DeliverySpec, WebhookSpec } from './schema';
import { describeMismatch, type Session, SkipScenario } from './session';

// The webhook step subscribes the session's inbox; the delivery step waits for a delivery there
// and checks it as an integrator must: the signature first, with the subscription's secret.

const SIGNATURE_TOLERANCE_S = 300; // spec, Signature verification 3: five minutes

export async function subscribe(spec: WebhookSpec, session: Session): Promise<Answer> {
  const inbox = requireInbox(session);
  const events = Array.isArray(spec.event) ? { events: spec.event } : { event: spec.event };
  const answer = await sendJson(
    'POST',
    `${session.base}/webhooks`,
    {
      ...events,
      target_url: inbox.url,
      description: 'svc scenario run',
      ...(spec.filters === undefined ? {} : { filters: spec.filters }),
    },
    session.keys.write,
    session.signal,
  );
  const error = asRecord(asRecord(answer.body).error);
  if (answer.status === 400 && (error.field === 'target_url' || error.field === 'targetUrl')) {
    // spec, Webhooks: the real service only calls public https URLs; the runner's is local
    throw new SkipScenario(
      `the server refuses the runner's receiver ${inbox.url} as a webhook target` +
        ` (${String(error.message ?? 'target_url')}); svc takes it with --allow-local-targets`,
    );
  }
  session.webhooks.push(...remember(answer, inbox));
  return answer;
}

/**
 * Keeps the secret of a subscription answer whose target is this inbox (a webhook step's, or a
 * request step's own POST /webhooks to `{{receiver_url}}`); the ids it made.
 */
export function remember(answer: Answer, inbox: Inbox | undefined): string[] {
  const body = asRecord(answer.body);
  if (!inbox || typeof body.secret !== 'string' || answer.status >= 300) {
    return [];
  }
  const items = body.object === 'list' && Array.isArray(body.data) ? body.data : [body];
  const ids: string[] = [];
  for (const item of items.map(asRecord)) {
    if (typeof item.id === 'string' && (item.target_url ?? inbox.url) === inbox.url) {
      inbox.secrets.set(item.id, body.secret);
      ids.push(item.id);
    }
  }
  return ids;
}

export type DeliveryOutcome =
  | { ok: true; received: Received }
  | { ok: false; detail: string; mismatch?: Mismatch };

export async function awaitDelivery(
  spec: DeliverySpec,
  session: Session,
): Promise<DeliveryOutcome> {
  const inbox = requireInbox(session);
  const within = spec.within_ms ?? (spec.none ? 1500 : 5000);
  const candidates = () => inbox.received.filter((r) => !r.consumed && r.event === spec.event);
  const fits = (r: Received) => mismatchOf(spec, r) === null;
  if (spec.none) {
    const came = await inbox.waitFor(() => candidates().find(fits), within, session.signal);
    return came
      ? {
          ok: false,
          detail: `expected no ${spec.event} delivery within ${within} ms, got ${describe(came)}`,
        }
      : { ok: true, received: emptyReceived(spec.event) };
  }
  // The first unconsumed delivery of the event that fits, in arrival order: deliveries of one
  // event may arrive out of order (spec: "a retried delivery can arrive after a newer one").
  const found = await inbox.waitFor(() => candidates().find(fits), within, session.signal);
  if (!found) {
    const first = candidates()[0];
    const mismatch = first ? mismatchOf(spec, first) : null;
    return first && mismatch
      ? { ok: false, detail: `delivery ${spec.event}: ${describeMismatch(mismatch)}`, mismatch }
      : { ok: false, detail: `no ${spec.event} delivery arrived within ${within} ms` };
  }
  found.consumed = true;
  const verdict = verify(found, inbox);
  if (verdict !== 'ok') {
    return { ok: false, detail: `${describe(found)}: signature check failed: ${verdict}` };
  }
  return { ok: true, received: found };
}

function mismatchOf(spec: DeliverySpec, r: Received): Mismatch | null {
  for (const [name, expected] of Object.entries(spec.headers ?? {})) {
    const m = matchHeader(expected, r.headers[name.toLowerCase()], `header.${name}`);
    if (m) {
      return m;
    }
  }
  return spec.body === undefined ? null : match(spec.body, r.body, 'body');
}

function verify(r: Received, inbox: Inbox): string {
  const webhookId = r.headers['x-service-webhook-id'];
  const secret = webhookId === undefined ? undefined : inbox.secrets.get(webhookId);
  if (secret === undefined) {
    return `no secret is known for webhook ${webhookId ?? '(no X-Service-Webhook-Id)'}`;
  }
  return verifySignature({
    header: r.headers['x-service-signature'],
    body: r.raw,
    secrets: [secret],
    nowSeconds: Math.floor(Date.now() / 1000),
    toleranceSeconds: SIGNATURE_TOLERANCE_S,
  });
}

function describe(r: Received): string {
  const id = asRecord(r.body).event_id;
  return `${r.event} delivery${typeof id === 'string' ? ` ${id}` : ''}`;
}

function emptyReceived(event: string): Received {
  return { event, headers: {}, raw: Buffer.alloc(0), body: {}, consumed: true };
}

function requireInbox(session: Session): Inbox {
  if (!session.inbox) {
    throw new Error('this run has no webhook receiver');
  }
  return session.inbox;
}

/** Best effort: the subscriptions a scenario made in a workspace it shares with others. */
export async function unsubscribeAll(session: Session): Promise<void> {
  for (const id of session.webhooks) {
    await sendJson(
      'DELETE',
      `${session.base}/webhooks/${id}`,
      undefined,
      session.keys.write,
      session.signal,
    ).catch(() => undefined);
  }
}
