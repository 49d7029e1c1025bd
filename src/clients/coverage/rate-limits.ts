import type { LogEntry } from './entries';
import type { RateLimits } from './report';

// spec, Limits: a 429 carries Retry-After; a client handles it by waiting that long and trying
// again. The log keeps no answer headers, but svc's message says the wait ("retry after N s").
const WAIT = /retry after (\d+) s/;
// decisions.md, Faults: a faulted 429 says Retry-After: 1.
const FAULT_WAIT_S = 1;

/**
 * How the 429s met were handled: each is followed (or not) by the next call with the same key,
 * method and path, in time order, once Retry-After had passed or before.
 */
export function rateLimitsOf(entries: readonly LogEntry[]): RateLimits {
  const out: RateLimits = { met: 0, honoured: 0, too_soon: 0, never_retried: 0 };
  const sameCall = new Map<string, LogEntry[]>();
  for (const entry of entries) {
    const key = `${entry.key_id} ${entry.method} ${entry.path}`;
    const list = sameCall.get(key) ?? [];
    list.push(entry);
    sameCall.set(key, list);
  }
  for (const calls of sameCall.values()) {
    calls.forEach((entry, i) => {
      if (entry.status !== 429) {
        return;
      }
      out.met += 1;
      const next = calls[i + 1];
      if (next === undefined) {
        out.never_retried += 1;
      } else if (Date.parse(next.at) - Date.parse(entry.at) >= waitOf(entry) * 1000) {
        out.honoured += 1;
      } else {
        out.too_soon += 1;
      }
    });
  }
  return out;
}

function waitOf(entry: LogEntry): number {
  const said = WAIT.exec(entry.response_body ?? '')?.[1];
  return said === undefined ? FAULT_WAIT_S : Number(said);
}
