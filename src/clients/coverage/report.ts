// The coverage report: DESIGN.md's fixed shape (`operations`, `never_called`, `error_codes`,
// `events`), then what svc adds (docs/decisions.md, svc coverage).

/** Counts by key; statuses are keyed by their number as text ("0": no HTTP answer). */
export type Counts = Record<string, number>;

export interface Endpoint {
  method: string;
  path: string;
}

export interface OperationRow extends Endpoint {
  calls: number;
  statuses: Counts;
  operation_id: string | null;
  /** Of `calls`, those an injected fault (/__admin/faults) answered. */
  faulted: number;
}

/** Calls that reached no operation of the document (a 404 or 405), by their concrete path. */
export interface UnmatchedRow extends Endpoint {
  calls: number;
  statuses: Counts;
}

export interface EventRow {
  event: string;
  deliveries: number;
  /** Every attempt's answer ("0": none, a time-out or a network error). */
  statuses: Counts;
  states: Counts;
  /** Deliveries tried more than once. */
  retried: number;
  /** Attempts an injected delivery fault stood in for. */
  faulted: number;
}

export interface RateLimits {
  /** 429 answers met. */
  met: number;
  /** Followed by the same call (key, method, path) once Retry-After had passed. */
  honoured: number;
  /** Followed by the same call before Retry-After had passed. */
  too_soon: number;
  /** Never followed by the same call. */
  never_retried: number;
}

export interface Hint {
  check: string;
  message: string;
}

export interface Coverage {
  operations: OperationRow[];
  never_called: Endpoint[];
  error_codes: Counts;
  events: EventRow[];
  workspace_id: string | null;
  requests: number;
  unmatched: UnmatchedRow[];
  /** Operations the request log cannot see (no workspace credential): neither called nor not. */
  not_logged: Endpoint[];
  faulted: { calls: number; error_codes: Counts };
  rate_limits: RateLimits;
  /** Events subscribed to (a `*` subscription: every event) that were never delivered. */
  never_delivered: string[];
  never_exercised: Hint[];
}

export const bump = (counts: Counts, key: string, by = 1): void => {
  counts[key] = (counts[key] ?? 0) + by;
};
