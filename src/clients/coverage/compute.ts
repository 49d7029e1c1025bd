import { neverDelivered, tallyEvents } from './deliveries';
import type { Document } from './document';
import type { Delivery, LogEntry, Subscription } from './entries';
import { neverExercised } from './hints';
import { rateLimitsOf } from './rate-limits';
import type { Coverage } from './report';
import { tallyRequests } from './requests';

export interface Traffic {
  doc: Document;
  /** The request log, oldest first. */
  entries: readonly LogEntry[];
  deliveries: readonly Delivery[];
  subscriptions: readonly Subscription[];
  workspaceId: string | null;
}

/** The coverage of the traffic: pure, from what the source read. */
export function computeCoverage(t: Traffic): Coverage {
  const requests = tallyRequests(t.doc, t.entries);
  const events = tallyEvents(t.doc.events, t.deliveries);
  const rateLimits = rateLimitsOf(t.entries);
  const never = neverDelivered(t.doc.events, t.subscriptions, events);
  return {
    operations: requests.operations,
    never_called: requests.never_called,
    error_codes: requests.error_codes,
    events,
    workspace_id: t.workspaceId,
    requests: t.entries.length,
    unmatched: requests.unmatched,
    not_logged: requests.not_logged,
    faulted: requests.faulted,
    rate_limits: rateLimits,
    never_delivered: never,
    never_exercised: neverExercised(
      { ...requests, rate_limits: rateLimits, never_delivered: never },
      t.entries,
      t.deliveries,
    ),
  };
}
