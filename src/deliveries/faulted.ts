import { errorStatus } from '../platform/errors';
import { sleep } from '../platform/faults';
import type { Runtime } from '../platform/runtime';
import { deliver, type Outgoing, type Result, timedOutAfter } from './send';

/**
 * One attempt, unless an injected fault (`match.target`) stands in for the receiver: `drop` is a
 * connection reset, a `delay_ms` at or past the time-out a time-out (after the time-out, in real
 * time, as a real one), a shorter one a wait before the rest, `status` that answer. The outcome
 * goes through the same retry policy as a real receiver's (decisions.md, Faults).
 */
export async function deliverOrFault(
  rt: Pick<Runtime, 'faults' | 'config'>,
  wsId: string,
  out: Outgoing,
  stop: AbortSignal,
): Promise<Result> {
  const timeoutMs = rt.config.webhookTimeoutMs;
  const fault = await rt.faults.forDelivery(out.url, wsId);
  if (!fault) {
    return deliver(out, timeoutMs, stop);
  }
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string): Result => ({
    status: null,
    error,
    durationMs: elapsed(),
    snippet: null,
    fault: fault.id,
  });
  const { action } = fault;
  if (action.delay_ms !== undefined && action.delay_ms >= timeoutMs) {
    await sleep(timeoutMs);
    return failed(timedOutAfter(timeoutMs));
  }
  if (action.delay_ms) {
    await sleep(action.delay_ms);
  }
  if (action.drop) {
    return failed('connection reset');
  }
  const status = action.status ?? (action.code ? errorStatus[action.code] : undefined);
  if (status !== undefined) {
    return {
      status,
      error: null,
      durationMs: elapsed(),
      snippet: null,
      fault: fault.id,
    };
  }
  const real = await deliver(out, timeoutMs, stop);
  return { ...real, durationMs: elapsed(), fault: fault.id };
}
