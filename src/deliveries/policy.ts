import type { Result } from './send';

// spec, Receiver responses and retries.

/** At most ten retries: eleven attempts in all. */
export const MAX_ATTEMPTS = 11;
/** Consecutive failed attempts that switch a subscription off. */
export const DISABLE_AFTER = 50;
export const TIMEOUT_MS = 10_000;

const MINUTE = 60_000;
const CAP = 6 * 60 * MINUTE;

/** The wait after failed attempt `n`: one minute after the first, doubling, capped at six hours. */
export const retryDelayMs = (n: number): number => Math.min(MINUTE * 2 ** (n - 1), CAP);

/** settled: 2xx; gone: 410 (settled, and the subscription is deleted); retry; stop: other 4xx. */
export type Outcome = 'settled' | 'gone' | 'retry' | 'stop';

export function outcomeOf(r: Result): Outcome {
  const status = r.status;
  if (status === null || r.error !== null) {
    return 'retry'; // time-out, network error, redirect
  }
  if (status >= 200 && status < 300) {
    return 'settled';
  }
  if (status === 410) {
    return 'gone';
  }
  if (status >= 500 || status === 408 || status === 429) {
    return 'retry';
  }
  return 'stop';
}
