import { z } from '@hono/zod-openapi';
import {
  listOf,
  nullableTimestamp,
  requiresOneOf,
  timestamp,
} from '../../platform/openapi/schemas';
import { text } from '../common/fields';

export const WebhookSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('webhook'),
    event: z.string().openapi({ description: 'An event name, or `*` for every event' }),
    target_url: z.string().openapi({ format: 'uri' }),
    description: z.string().nullable(),
    filters: z
      .record(z.string(), z.string())
      .openapi({ description: 'Filter key → value; a stage filter shows the stage key' }),
    created_at: timestamp(),
    disabled_at: nullableTimestamp().openapi({
      description:
        'Set when the subscription was switched off (50 consecutive failures, or its key revoked)',
    }),
  })
  .openapi('Webhook');

const secret = z.string().openapi({ description: 'Signing secret (`whsec_`), returned once' });

export const WebhookCreatedSchema = WebhookSchema.extend({ secret }).openapi('WebhookCreated');

/** Several events for one URL: one subscription each, sharing one secret. */
export const WebhookGroupSchema = z
  .object({
    object: z.literal('list'),
    data: z.array(WebhookSchema),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
    secret: secret.optional(),
  })
  .openapi('WebhookGroup');

export const WebhookListSchema = listOf(WebhookSchema, 'WebhookList');

// JSON.parse makes `__proto__` an own key, which a record drops as it copies the object: the
// subscription would be made unfiltered. It is no filter key of any event, so it is refused.
const filterObject = z
  .preprocess(
    (value, ctx) => {
      if (value !== null && typeof value === 'object' && Object.hasOwn(value, '__proto__')) {
        ctx.issues.push({
          code: 'custom',
          path: ['__proto__'],
          message: '"__proto__" is not a filter key; GET /events lists them',
          input: value,
        });
      }
      return value;
    },
    z.record(z.string(), z.unknown()),
  )
  .openapi({
    // A value is one string (is_appointment also takes JSON true); svc checks each (GET /events).
    additionalProperties: { anyOf: [{ type: 'string' }, { type: 'boolean' }] },
  });

export const WebhookCreateSchema = z
  .object({
    event: z.string().optional().openapi({ description: 'One event name, or `*`' }),
    events: z
      .array(z.string())
      .optional()
      .openapi({ description: 'Several event names for one URL, sharing one secret' }),
    target_url: z.string().optional().openapi({ format: 'uri', description: 'Required' }),
    targetUrl: z.string().optional().openapi({ description: 'Alias of target_url' }),
    description: text(500)
      .nullable()
      .optional()
      .openapi({ description: 'Trimmed; empty is stored as null' }),
    filters: filterObject
      .nullable()
      .optional()
      .openapi({ description: 'Single-event subscriptions only; see GET /events' }),
  })
  .openapi('WebhookCreate', {
    description: 'event (or events) and target_url (or targetUrl) are required',
    ...requiresOneOf(
      [
        ['event', 'events'],
        ['target_url', 'targetUrl'],
      ],
      { events: { type: 'array', items: { type: 'string' } } },
    ),
  });

export type WebhookCreate = z.output<typeof WebhookCreateSchema>;

export const EventParam = z.object({
  event: z.string().openapi({ param: { name: 'event', in: 'path' }, example: 'job.created' }),
});

/** spec, Lookups: EventDefinition. */
export const EventDefinitionSchema = z
  .object({
    event: z.string(),
    resource: z.string(),
    label: z.string(),
    description: z.string(),
    filters: z.array(
      z.object({
        key: z.string(),
        label: z.string(),
        kind: z.string().openapi({ description: 'stage, enum, pipeline or user' }),
        values: z.array(z.string()).optional(),
      }),
    ),
  })
  .openapi('EventDefinition');

export const EventDefinitionListSchema = listOf(EventDefinitionSchema, 'EventDefinitionList');
