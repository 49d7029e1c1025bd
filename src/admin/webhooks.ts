import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { Delivery } from '../deliveries/records';
import type { AppEnv } from '../platform/app-env';
import { adminWriteErrors, errorResponses, jsonResponse } from '../platform/openapi/responses';
import { listOf, timestamp } from '../platform/openapi/schemas';
import type { Runtime } from '../platform/runtime';
import { uuidInput } from '../resources/common/fields';
import { byId, recordId } from '../resources/common/routing';
import { validSecrets, type Webhook } from '../resources/webhooks/records';
import { WebhookSchema } from '../resources/webhooks/schema';
import { presentWebhook } from '../resources/webhooks/service';
import { scopedTo } from './access';
import { adminPage, adminPaging, positionOf } from './paging';
import {
  acrossHeld,
  deliveryLog,
  enable,
  listAllWebhooks,
  notifications,
  resend,
  rotateSecret,
  sendTest,
} from './webhooks-service';

const AdminWebhookSchema = WebhookSchema.extend({
  workspace_id: z.uuid(),
  credential_id: z.string(),
  consecutive_failures: z.number().int(),
  active_secrets: z.number().int().openapi({ description: 'How many secrets sign right now' }),
}).openapi('AdminWebhook');

const AttemptSchema = z.object({
  n: z.number().int(),
  at: timestamp(),
  status_code: z.number().int().nullable(),
  duration_ms: z.number(),
  error: z.string().nullable(),
  response_snippet: z.string().nullable(),
  fault: z.string().optional().openapi({
    description: 'The injected fault that stood in for the receiver; absent when none',
  }),
  signature: z.string().optional().openapi({
    description: 'The X-Service-Signature header the attempt sent; absent when nothing was sent',
  }),
});

export const DeliverySchema = z
  .object({
    id: z.uuid(),
    object: z.literal('delivery'),
    webhook_id: z.uuid(),
    event_id: z.uuid(),
    event: z.string(),
    kind: z.enum(['event', 'resend', 'test']),
    resend_of: z.uuid().nullable(),
    state: z.enum(['pending', 'retrying', 'succeeded', 'failed', 'cancelled']),
    next_attempt_at: timestamp().nullable(),
    created_at: timestamp(),
    attempts: z.array(AttemptSchema),
  })
  .openapi('AdminDelivery');

const NotificationSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('notification'),
    workspace_id: z.uuid(),
    kind: z.string(),
    webhook_id: z.uuid(),
    user_ids: z.array(z.uuid()),
    message: z.string(),
    created_at: timestamp(),
  })
  .openapi('AdminNotification');

const RotatedSchema = z
  .object({
    object: z.literal('webhook_secret'),
    secret: z.string(),
    previous_expires_at: timestamp(),
    webhook_ids: z.array(z.uuid()),
  })
  .openapi('AdminRotatedSecret');

const byWorkspace = z.object({ workspace_id: uuidInput().optional(), ...adminPaging });

const presentAdmin = (workspaceId: string, h: Webhook, nowMs: number) => ({
  ...presentWebhook(h),
  workspace_id: workspaceId,
  credential_id: h.credential_id,
  consecutive_failures: h.consecutive_failures,
  active_secrets: validSecrets(h, nowMs).length,
});

const presentDelivery = (d: Delivery): z.infer<typeof DeliverySchema> => ({
  id: d.id,
  object: 'delivery',
  webhook_id: d.webhook_id,
  event_id: d.event_id,
  event: d.event,
  kind: d.kind,
  resend_of: d.resend_of,
  state: d.state,
  next_attempt_at: d.next_attempt_at,
  created_at: d.created_at,
  attempts: d.attempts,
});

const notFound = errorResponses('invalid_request', 'not_found');
const notFoundWrite = adminWriteErrors('invalid_request', 'not_found');

const routes = {
  list: createRoute({
    method: 'get',
    path: '/webhooks',
    operationId: 'listAdminWebhooks',
    summary: 'The webhook subscriptions, newest first (optionally of one workspace); paged',
    request: { query: byWorkspace },
    responses: {
      200: jsonResponse(listOf(AdminWebhookSchema, 'AdminWebhookList'), 'Subscriptions'),
      ...errorResponses('invalid_request'),
    },
  }),
  deliveries: createRoute({
    method: 'get',
    path: '/webhooks/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: 'The delivery log of a subscription, newest first, every attempt with it; paged',
    ...byId,
    request: { query: z.object(adminPaging) },
    responses: {
      200: jsonResponse(listOf(DeliverySchema, 'AdminDeliveryList'), 'The delivery log'),
      ...notFound,
    },
  }),
  resend: createRoute({
    method: 'post',
    path: '/deliveries/{id}/resend',
    operationId: 'resendDelivery',
    summary: 'Send a delivery again, once, now: same event_id, same body, freshly signed',
    ...byId,
    responses: {
      200: jsonResponse(DeliverySchema, 'The resend, after its attempt'),
      ...notFoundWrite,
    },
  }),
  test: createRoute({
    method: 'post',
    path: '/webhooks/{id}/test',
    operationId: 'sendWebhookTest',
    summary: 'A signed test send (`event_test: true`) of a recent record',
    ...byId,
    request: {
      body: {
        required: false,
        content: {
          'application/json': {
            schema: z.object({
              event: z
                .string()
                .optional()
                .openapi({ description: 'For a `*` subscription; default job.created' }),
            }),
          },
        },
      },
    },
    responses: {
      200: jsonResponse(DeliverySchema, 'The test delivery, after its attempt'),
      ...notFoundWrite,
    },
  }),
  rotate: createRoute({
    method: 'post',
    path: '/webhooks/{id}/rotate_secret',
    operationId: 'rotateWebhookSecret',
    summary: 'A new secret; the old one keeps signing for 24 hours beside it',
    ...byId,
    responses: {
      200: jsonResponse(RotatedSchema, 'The new secret (shown once)'),
      ...notFoundWrite,
    },
  }),
  enable: createRoute({
    method: 'post',
    path: '/webhooks/{id}/enable',
    operationId: 'enableWebhook',
    summary: 'Switch a subscription back on, its failure count back to zero',
    ...byId,
    responses: { 200: jsonResponse(AdminWebhookSchema, 'The subscription'), ...notFoundWrite },
  }),
  notifications: createRoute({
    method: 'get',
    path: '/notifications',
    operationId: 'listNotifications',
    summary:
      "What the workspace's owners and admins were told (a webhook switched off), newest first; paged",
    request: { query: byWorkspace },
    responses: {
      200: jsonResponse(listOf(NotificationSchema, 'AdminNotificationList'), 'Notifications'),
      ...errorResponses('invalid_request'),
    },
  }),
};

export function webhookAdmin(rt: Runtime) {
  const now = (wsId: string) => rt.clocks.of(wsId).nowMs();
  return new OpenAPIHono<AppEnv>()
    .openapi(routes.list, async (c) => {
      const q = c.req.valid('query');
      const wanted = scopedTo(c, q.workspace_id);
      const body = await acrossHeld(rt, wanted, () =>
        adminPage(
          rt,
          'webhooks',
          q,
          (after) => listAllWebhooks(rt, wanted, after, q.limit),
          (f) => positionOf(f.record),
          (f) => presentAdmin(f.workspaceId, f.record, now(f.workspaceId)),
        ),
      );
      return c.json(body, 200);
    })
    .openapi(routes.deliveries, (c) => {
      const q = c.req.valid('query');
      const id = recordId(c);
      const body = adminPage(
        rt,
        `webhooks/${id}/deliveries`,
        q,
        (after) => deliveryLog(rt, id, after, q.limit),
        positionOf,
        presentDelivery,
      );
      return c.json(body, 200);
    })
    .openapi(routes.resend, async (c) =>
      c.json(presentDelivery(await resend(rt, rt.deliveries, recordId(c))), 200),
    )
    .openapi(routes.test, async (c) => {
      // The body is optional: without one, validation hands over nothing.
      const event = (c.req.valid('json') as { event?: string } | undefined)?.event;
      const sent = await sendTest(rt, rt.deliveries, recordId(c), event);
      return c.json(presentDelivery(sent), 200);
    })
    .openapi(routes.rotate, (c) => {
      const { secret, previousExpiresAt, hooks } = rotateSecret(rt, recordId(c));
      return c.json(
        {
          object: 'webhook_secret' as const,
          secret,
          previous_expires_at: previousExpiresAt,
          webhook_ids: hooks.map((h) => h.id),
        },
        200,
      );
    })
    .openapi(routes.enable, (c) => {
      const { workspaceId, record } = enable(rt, recordId(c));
      return c.json(presentAdmin(workspaceId, record, now(workspaceId)), 200);
    })
    .openapi(routes.notifications, async (c) => {
      const q = c.req.valid('query');
      const wanted = scopedTo(c, q.workspace_id);
      const body = await acrossHeld(rt, wanted, () =>
        adminPage(
          rt,
          'notifications',
          q,
          (after) => notifications(rt, wanted, after, q.limit),
          (f) => positionOf(f.record),
          (f) => ({ ...f.record, workspace_id: f.workspaceId }),
        ),
      );
      return c.json(body, 200);
    });
}
