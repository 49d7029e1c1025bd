import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/errors';
import type { RouteDeps } from '../../platform/family';
import { baseErrors, errorResponses, jsonResponse } from '../../platform/openapi/responses';
import { listOf } from '../../platform/openapi/schemas';
import { wholeList } from '../../platform/paging';
import {
  anyKeyChangeErrors,
  byId,
  changeErrors,
  deletedResponse,
  jsonBody,
  readErrors,
  readOneErrors,
  recordId,
  writeOnly,
} from '../common/routing';
import {
  EventDefinitionListSchema,
  EventParam,
  WebhookCreatedSchema,
  WebhookCreateSchema,
  WebhookGroupSchema,
  WebhookListSchema,
  WebhookSchema,
} from './schema';
import {
  deleteOwnWebhook,
  eventCatalogue,
  getWebhook,
  listWebhooks,
  presentWebhook,
  subscribe,
} from './service';

const tags = ['Webhooks'];

const list = createRoute({
  method: 'get',
  path: '/webhooks',
  operationId: 'listWebhooks',
  tags,
  summary: 'The subscriptions the calling credential created, newest first',
  responses: {
    200: jsonResponse(WebhookListSchema, 'Every subscription of this credential'),
    ...readErrors(),
  },
});

// No writeOnly: spec, Authentication 3, a read-only credential may subscribe (only that).
const create = createRoute({
  method: 'post',
  path: '/webhooks',
  operationId: 'createWebhook',
  tags,
  summary: 'Subscribe a URL to an event, to every event (`*`), or to several events',
  request: { body: jsonBody(WebhookCreateSchema) },
  responses: {
    201: jsonResponse(
      z.union([WebhookCreatedSchema, WebhookGroupSchema]),
      'Something new was subscribed: the subscription with its secret (shown once); for `events`, every subscription of the list, which the one secret now signs',
    ),
    200: jsonResponse(
      z.union([WebhookSchema, WebhookGroupSchema]),
      'Every event asked was already subscribed at this URL with these filters: the existing subscriptions, no secret',
    ),
    ...anyKeyChangeErrors(),
  },
});

const getOne = createRoute({
  method: 'get',
  path: '/webhooks/{id}',
  operationId: 'getWebhook',
  tags,
  summary: 'One subscription (never its secret)',
  ...byId,
  responses: { 200: jsonResponse(WebhookSchema, 'The subscription'), ...readOneErrors() },
});

const remove = createRoute({
  method: 'delete',
  path: '/webhooks/{id}',
  operationId: 'deleteWebhook',
  tags,
  summary: 'Delete a subscription; its deliveries still waiting are cancelled',
  // spec, Authentication 3: read only is "read and subscribe to webhooks; any other write
  // answers 403", and deleting a subscription is another write.
  middleware: writeOnly,
  ...byId,
  responses: { 200: deletedResponse(), ...changeErrors(true) },
});

/** `bodies`: a delivery body of any event (each event's is a schema of the document). */
const samplesRoute = (bodies: z.ZodType) =>
  createRoute({
    method: 'get',
    path: '/webhooks/samples/{event}',
    operationId: 'listWebhookSamples',
    tags,
    summary: 'Up to three recent records of the workspace wrapped as deliveries of the event',
    request: { params: EventParam },
    responses: {
      200: jsonResponse(
        listOf(bodies, 'DeliverySampleList'),
        'Sample delivery bodies, newest first',
      ),
      ...errorResponses('not_found', ...baseErrors),
    },
  });

const events = createRoute({
  method: 'get',
  path: '/events',
  operationId: 'listEvents',
  tags: ['Lookups'],
  summary: 'The event catalogue: every event with the filters it accepts',
  responses: {
    200: jsonResponse(EventDefinitionListSchema, 'The 30 events'),
    ...errorResponses(...baseErrors),
  },
});

const SAMPLES = 3;

export function webhookRoutes(deps: RouteDeps) {
  return new OpenAPIHono<AppEnv>()
    .openapi(list, (c) => c.json(wholeList(listWebhooks(c.get('ctx')).map(presentWebhook)), 200))
    .openapi(create, async (c) => {
      const done = await subscribe(c.get('ctx'), c.req.valid('json'), {
        allowLocalTargets: deps.config.allowLocalTargets,
        events: deps.events,
      });
      const hooks = done.webhooks.map(presentWebhook);
      const [hook] = hooks;
      if (done.secret === null) {
        return c.json(done.group || !hook ? wholeList(hooks) : hook, 200);
      }
      const secret = done.secret;
      return c.json(
        done.group || !hook ? { ...wholeList(hooks), secret } : { ...hook, secret },
        201,
      );
    })
    .openapi(samplesRoute(deps.events.bodies), (c) => {
      const ctx = c.get('ctx');
      const name = c.req.valid('param').event;
      const def = deps.events.find(name);
      if (!def) {
        throw new ApiError('not_found', `"${name}" is not an event; GET /events lists them`);
      }
      const data = deps.events.samples(ctx, def, SAMPLES);
      return c.json(wholeList(data), 200);
    })
    .openapi(getOne, (c) => c.json(presentWebhook(getWebhook(c.get('ctx'), recordId(c))), 200))
    .openapi(remove, (c) => {
      const hook = deleteOwnWebhook(c.get('ctx'), recordId(c));
      return c.json({ id: hook.id, object: 'webhook', deleted: true as const }, 200);
    })
    .openapi(events, (c) => c.json(wholeList(eventCatalogue(c.get('ctx'), deps.events)), 200));
}
