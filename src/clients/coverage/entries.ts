import { z } from 'zod';

// What coverage reads of a request-log entry (`GET /__admin/requests?format=jsonl`, one a line)
// and of a delivery (`GET /__admin/webhooks/{id}/deliveries`). Fields it does not need are left.

export const LogEntrySchema = z.object({
  at: z.string(),
  method: z.string(),
  path: z.string(),
  query: z.record(z.string(), z.string()).default({}),
  status: z.number().int(),
  key_id: z.string(),
  workspace_id: z.string(),
  request_headers: z.record(z.string(), z.string()).default({}),
  response_body: z.string().nullable().default(null),
  fault: z.string().optional(),
});

export type LogEntry = z.output<typeof LogEntrySchema>;

export const AttemptSchema = z.object({
  status_code: z.number().int().nullable(),
  error: z.string().nullable().default(null),
  fault: z.string().optional(),
});

export const DeliverySchema = z.object({
  id: z.string(),
  webhook_id: z.string(),
  event: z.string(),
  kind: z.string().default('event'),
  state: z.string(),
  attempts: z.array(AttemptSchema),
});

export type Delivery = z.output<typeof DeliverySchema>;

/** A subscription as the control API lists it: what coverage reads of it. */
export const SubscriptionSchema = z.object({
  id: z.string(),
  event: z.string(),
  workspace_id: z.string(),
});

export type Subscription = z.output<typeof SubscriptionSchema>;

/** The `error.code` of an error answer as the log kept it; undefined when it holds none. */
export function errorCodeOf(entry: LogEntry): string | undefined {
  if (entry.status < 400 || entry.response_body === null) {
    return undefined;
  }
  try {
    const body: unknown = JSON.parse(entry.response_body);
    const error = (body as { error?: { code?: unknown } } | null)?.error;
    return typeof error?.code === 'string' ? error.code : undefined;
  } catch {
    return undefined; // cut at 16 KB, or not JSON: no error envelope of svc's
  }
}

const isSubscribe = (entry: LogEntry) =>
  entry.method === 'POST' && entry.path === '/v1/webhooks' && entry.status < 300;

/** Whether coverage reads the entry's answer: an error's code, or what a subscribe made. */
export const answerNeeded = (entry: LogEntry): boolean => entry.status >= 400 || isSubscribe(entry);

/** The ids of the subscriptions a logged `POST /v1/webhooks` made or found. */
export function subscriptionIdsOf(entry: LogEntry): string[] {
  if (!isSubscribe(entry)) {
    return [];
  }
  try {
    const body = JSON.parse(entry.response_body ?? 'null') as {
      id?: unknown;
      data?: { id?: unknown }[];
    } | null;
    const listed = Array.isArray(body?.data) ? body.data.map((w) => w.id) : [body?.id];
    return listed.filter((id): id is string => typeof id === 'string');
  } catch {
    return [];
  }
}
