import type { Rec } from '../store';

/**
 * One occurrence of an event, as sent: the body is kept as the exact string that is signed, so
 * every attempt, retry and resend carries the same bytes and the same `event_id`.
 */
export type EventRecord = Rec & {
  object: 'event';
  event: string;
  event_at: string;
  record_id: string | null;
  body: string;
  created_at: string;
};

export interface Attempt {
  n: number;
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  /** The start of what the receiver answered, for the delivery log. */
  response_snippet: string | null;
  /** The injected fault (/__admin/faults `match.target`) that stood in for the receiver. */
  fault?: string;
  /** The X-Service-Signature header sent; absent when nothing was sent, and in older logs. */
  signature?: string;
}

export const DELIVERY_STATES = ['pending', 'retrying', 'succeeded', 'failed', 'cancelled'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** `event`: raised by a change; `resend` and `test`: sent once from the delivery log. */
export type DeliveryKind = 'event' | 'resend' | 'test';

export type Delivery = Rec & {
  object: 'delivery';
  webhook_id: string;
  event_id: string;
  event: string;
  kind: DeliveryKind;
  resend_of: string | null;
  state: DeliveryState;
  attempts: Attempt[];
  max_attempts: number;
  /** When the next attempt is due; null once settled, and for a send run at once (resend, test). */
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
};

/** Edits to one record waiting out the coalescing window before they go out as one `*.updated`. */
export type PendingUpdate = Rec & {
  object: 'pending_update';
  event: string;
  record_id: string;
  event_id: string;
  changed_fields: string[];
  last_at: string;
  due_at: string;
};

export type Notification = Rec & {
  object: 'notification';
  kind: 'webhook_disabled';
  webhook_id: string;
  /** The workspace's owners and admins. */
  user_ids: string[];
  message: string;
  created_at: string;
};

declare module '../store/collections' {
  interface WorkspaceCollections {
    webhook_events: EventRecord;
    deliveries: Delivery;
    pending_updates: PendingUpdate;
    notifications: Notification;
  }
}

export const isOpen = (d: Delivery): boolean => d.state === 'pending' || d.state === 'retrying';
