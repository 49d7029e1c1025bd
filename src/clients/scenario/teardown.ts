import type { ScenarioResult } from './runner';
import type { Scenario } from './schema';
import { type Session, SkipScenario, StepFailure } from './session';
import { runSteps } from './steps';
import type { Target } from './target';
import { unsubscribeAll } from './webhooks';

// After a scenario's steps, pass or fail: its `teardown:` steps, then (against a server of
// someone else's) the subscriptions it made are removed; a Ctrl-C gives them CLEANUP_MS.

/** After Ctrl-C, how long the running scenario's teardown and unsubscribing may take in all. */
export const CLEANUP_MS = 10_000;

/** The teardown and the unsubscribing run to their end, or until CLEANUP_MS after a Ctrl-C. */
export async function tearDown(
  scenario: Scenario,
  session: Session,
  target: Target,
  stop: AbortSignal,
  result: ScenarioResult,
): Promise<ScenarioResult> {
  const cleanup = cleanupSignal(stop);
  session.signal = cleanup.signal;
  try {
    const broke = await runTeardown(scenario, session);
    if (broke === undefined) {
      return result;
    }
    // a teardown failure fails the scenario too, but never hides the first failure
    return result.status === 'failed'
      ? { ...result, reason: `${result.reason ?? 'failed'}\n  and ${broke}` }
      : { ...result, status: 'failed', reason: broke, step: null };
  } finally {
    if (target.remote) {
      await unsubscribeAll(session);
    }
    session.inbox?.close();
    cleanup.done();
  }
}

/** Aborts CLEANUP_MS after `stop` does (at once counting from now when it has already). */
function cleanupSignal(stop: AbortSignal): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const start = () => {
    timer = setTimeout(() => controller.abort(), CLEANUP_MS);
    timer.unref();
  };
  if (stop.aborted) {
    start();
  } else {
    stop.addEventListener('abort', start, { once: true });
  }
  return {
    signal: controller.signal,
    done() {
      clearTimeout(timer);
      stop.removeEventListener('abort', start);
    },
  };
}

/** The scenario's `teardown:` steps, all of them, whatever `steps` did; the first failure's text. */
async function runTeardown(scenario: Scenario, session: Session): Promise<string | undefined> {
  let first: string | undefined;
  for (const [i, step] of (scenario.teardown ?? []).entries()) {
    try {
      await runSteps([step], session);
    } catch (err) {
      if (err instanceof SkipScenario) {
        continue;
      }
      const text =
        err instanceof StepFailure
          ? `teardown step ${i + 1} (${err.label}): ${err.detail}`
          : `teardown step ${i + 1}: ${(err as Error).message}`;
      first ??= text;
    }
  }
  return first;
}
