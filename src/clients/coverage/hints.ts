import type { Delivery, LogEntry } from './entries';
import type { Coverage, Hint } from './report';

type Found = Pick<Coverage, 'operations' | 'never_called' | 'rate_limits' | 'never_delivered'>;

/** What the traffic never put the integration through, each with how svc can provoke it. */
export function neverExercised(
  found: Found,
  entries: readonly LogEntry[],
  deliveries: readonly Delivery[],
): Hint[] {
  const hints: Hint[] = [];
  const say = (check: string, message: string) => hints.push({ check, message });
  const total = found.operations.length + found.never_called.length;
  if (found.never_called.length > 0) {
    say('operations', `${found.never_called.length} of ${total} operations never called`);
  }
  const rl = found.rate_limits;
  if (rl.met === 0) {
    say(
      'rate_limited',
      'a 429 never handled: no call met rate_limited (--rate-limit N, or a fault with status 429)',
    );
  }
  if (rl.never_retried > 0) {
    say('rate_limited', `${rl.never_retried} of ${rl.met} 429 answers never retried`);
  }
  if (rl.too_soon > 0) {
    say('rate_limited', `${rl.too_soon} of ${rl.met} 429 answers retried before Retry-After`);
  }
  if (!entries.some((e) => e.status >= 500 || e.status === 0)) {
    say(
      'server_error',
      'no 5xx or dropped connection met (a fault with status 503, or drop: true)',
    );
  }
  if (deliveries.length === 0) {
    say('webhook', 'no webhook delivered (subscribe a receiver with POST /v1/webhooks)');
  } else if (!deliveries.some((d) => d.attempts.length > 1)) {
    say(
      'webhook_retry',
      'a webhook never retried: each delivery settled at once (answer 500, or a fault on match.target)',
    );
  }
  if (found.never_delivered.length > 0) {
    say('event', `subscribed, never delivered: ${found.never_delivered.join(', ')}`);
  }
  if (!entries.some((e) => e.method === 'POST' && e.request_headers['idempotency-key'])) {
    say('idempotency', 'no POST sent an Idempotency-Key');
  }
  if (!entries.some((e) => e.method === 'GET' && e.query.cursor !== undefined)) {
    say('pagination', 'no list read past its first page (no cursor sent)');
  }
  return hints;
}
