import type { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../app-env';

// spec, Events: what svc POSTs to a subscription's URL, described as OpenAPI 3.0 describes calls
// an API makes (Redoc's `x-webhooks`; 3.1's `webhooks`): one entry an event, its body a schema of
// the document, its headers the spec's delivery headers, and what each answer makes svc do.

export interface Delivered {
  event: string;
  label: string;
  description: string;
  /** The body's component in the document. */
  name: string;
  schema: z.ZodObject;
}

const header = (name: string, description: string, schema: object, required = true) => ({
  name,
  in: 'header',
  required,
  description,
  schema,
});

const HEADERS = [
  header(
    'X-Service-Signature',
    '`t=<unix seconds>,v1=<hex>`, one v1 per secret that signs now: hex HMAC-SHA256 of `<t>.<raw body>` keyed with the secret. Accept if any v1 matches (constant time) and t is within five minutes',
    { type: 'string' },
  ),
  header('X-Service-Event', 'The event name', { type: 'string' }),
  header('X-Service-Delivery', 'The event id, as `event_id`: the same on retries and resends', {
    type: 'string',
    format: 'uuid',
  }),
  header('X-Service-Webhook-Id', 'The subscription', { type: 'string', format: 'uuid' }),
  header('X-Service-Attempt', '1 for the first try, up to 11', {
    type: 'integer',
    minimum: 1,
    maximum: 11,
  }),
  header('User-Agent', '`Service-Webhooks/2.0`', { type: 'string' }),
];

const RESPONSES = {
  '2XX': { description: 'Settled (within 10 seconds); the body is ignored' },
  '410': { description: 'Settled, and the subscription is deleted' },
  default: {
    description:
      '5xx, 408, 429, a time-out, a redirect or a network error: retried (1 minute, doubling, at most 6 hours, 10 retries); any other 4xx stops this delivery',
  },
};

/** Registers each event's body as a component of `app`'s document. */
export function registerDeliveries(app: OpenAPIHono<AppEnv>, deliveries: readonly Delivered[]) {
  for (const d of deliveries) {
    app.openAPIRegistry.register(d.name, d.schema);
  }
}

/** The `x-webhooks` section: one POST an event, to the subscription's target_url. */
export function webhooksSection(deliveries: readonly Delivered[]): Record<string, object> {
  return Object.fromEntries(
    deliveries.map((d) => [
      d.event,
      {
        post: {
          // pin.result_changed is deliverPinResultChanged, as a receiver's handler is named
          operationId: `deliver${d.name.replace(/Delivery$/, '')}`,
          summary: d.label,
          description: d.description,
          tags: ['Webhooks'],
          parameters: HEADERS,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${d.name}` } } },
          },
          responses: RESPONSES,
        },
      },
    ]),
  );
}
