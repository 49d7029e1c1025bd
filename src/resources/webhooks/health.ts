import type { Webhook } from './records';

// spec, Receiver responses and retries: what a delivery attempt makes of its subscription. The
// delivery worker applies this after each attempt; open deliveries of a subscription that is
// deleted or switched off are cancelled by the worker when it reads that change.

/** spec: after 50 consecutive failures the subscription is switched off. */
export const DISABLE_AFTER = 50;

/** succeeded: a 2xx; gone: a 410; failed: anything retried, or any other 4xx. */
export type AttemptResult = 'succeeded' | 'gone' | 'failed';

export interface AfterAttempt {
  /** The subscription as it now is; null once a 410 has deleted it. */
  hook: Webhook | null;
  /** This failure switched it off: the owners and admins are told. */
  switchedOff: boolean;
}

/** Any success (and a 410) resets the count of consecutive failures; the 50th switches it off. */
export function afterAttempt(hook: Webhook, result: AttemptResult, now: string): AfterAttempt {
  if (result === 'gone') {
    return { hook: null, switchedOff: false };
  }
  if (result === 'succeeded') {
    return {
      hook:
        hook.consecutive_failures === 0
          ? hook
          : { ...hook, consecutive_failures: 0, updated_at: now },
      switchedOff: false,
    };
  }
  const failures = hook.consecutive_failures + 1;
  if (failures < DISABLE_AFTER || hook.disabled_at !== null) {
    return {
      hook: { ...hook, consecutive_failures: failures, updated_at: now },
      switchedOff: false,
    };
  }
  return {
    hook: { ...hook, consecutive_failures: failures, disabled_at: now, updated_at: now },
    switchedOff: true,
  };
}
