import type { z } from '@hono/zod-openapi';
import { ApiError } from '../../platform/errors';
import { type EventCatalogue, type EventDef, shape, WILDCARD } from '../../platform/family';
import { newId, randomToken } from '../../platform/ids';
import type { ServiceContext } from '../../platform/service-context';
import type { TxScope, WorkspaceCollections } from '../../store';
import { checkFilters } from './filters';
import { rollSecret, type Webhook } from './records';
import { type EventDefinitionSchema, type WebhookCreate, WebhookSchema } from './schema';
import { checkReachable, parseTarget } from './targets';

/** decisions.md: the spec does not show a maximum; svc holds 500 subscriptions a workspace. */
export const MAX_SUBSCRIPTIONS = 500;
export const SECRET_PREFIX = 'whsec_';

export const presentWebhook = (h: Webhook): z.infer<typeof WebhookSchema> =>
  shape(WebhookSchema, h, {});

/** spec, Authentication 4: a credential sees only the subscriptions it created. */
const ownedBy = (ctx: ServiceContext, h: Webhook) => h.credential_id === ctx.credential.id;

export function listWebhooks(ctx: ServiceContext): Webhook[] {
  return [...ctx.ws.values('webhooks')]
    .filter((h) => ownedBy(ctx, h))
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
}

export function getWebhook(ctx: ServiceContext, id: string): Webhook {
  const hook = ctx.ws.get('webhooks', id);
  if (!hook || !ownedBy(ctx, hook)) {
    throw new ApiError('not_found', 'no such webhook');
  }
  return hook;
}

/** Its deliveries still waiting are cancelled by the worker, which reads the deletion. */
export function deleteOwnWebhook(ctx: ServiceContext, id: string): Webhook {
  const hook = getWebhook(ctx, id);
  ctx.ws.transaction((tx) => tx.delete('webhooks', hook.id));
  return hook;
}

function eventNamed(events: EventCatalogue, name: string, field: string): EventDef {
  const def = events.find(name);
  if (!def) {
    throw new ApiError(
      'invalid_request',
      `${field}: "${name}" is not an event; GET /events lists them`,
      field,
    );
  }
  return def;
}

interface Request {
  events: string[];
  /** True when sent as `events`: the answer is then a list sharing one secret. */
  group: boolean;
  filters: Record<string, string>;
}

/** What to subscribe to: `event` (one name or `*`) or `events`, with filters for one event only. */
function readEvents(ctx: ServiceContext, events: EventCatalogue, input: WebhookCreate): Request {
  const filters = input.filters ?? {};
  const filtered = Object.keys(filters).length > 0;
  if (input.event !== undefined && input.events !== undefined) {
    throw new ApiError('invalid_request', 'send event or events, not both', 'events');
  }
  if (input.events !== undefined) {
    if (input.events.length === 0) {
      throw new ApiError('invalid_request', 'events must name at least one event', 'events');
    }
    input.events.forEach((name, i) => {
      if (name === WILDCARD) {
        throw new ApiError('invalid_request', 'send `*` as event, not in events', `events[${i}]`);
      }
      eventNamed(events, name, `events[${i}]`);
    });
    if (filtered) {
      throw new ApiError(
        'invalid_request',
        'filters apply only to a subscription to one event (send event, not events)',
        'filters',
      );
    }
    return { events: [...new Set(input.events)], group: true, filters: {} };
  }
  if (input.event === undefined || input.event === '') {
    throw new ApiError('invalid_request', 'event (or events) is required', 'event');
  }
  if (input.event === WILDCARD) {
    if (filtered) {
      throw new ApiError(
        'invalid_request',
        'a subscription to every event cannot be filtered',
        'filters',
      );
    }
    return { events: [WILDCARD], group: false, filters: {} };
  }
  const def = eventNamed(events, input.event, 'event');
  return { events: [def.event], group: false, filters: checkFilters(ctx, def, filters) };
}

const sameFilters = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(a).every(([k, v]) => b[k] === v);

const sameUrl = (a: string, b: string) => {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
};

/**
 * spec: subscribing the same event, URL and filters again returns the existing subscription. That
 * holds per event, alone or in an `events` list: for each event asked, the credential's existing
 * subscription to it at this URL with these filters, or undefined where there is none.
 */
function existing(ctx: ServiceContext, req: Request, url: string): (Webhook | undefined)[] {
  const mine = listWebhooks(ctx).filter(
    (h) => sameUrl(h.target_url, url) && sameFilters(h.filters, req.filters),
  );
  return req.events.map((event) => mine.find((h) => h.event === event));
}

export interface Subscribed {
  created: boolean;
  group: boolean;
  webhooks: Webhook[];
  /** Only when something was created: the secret is returned once. */
  secret: string | null;
}

export async function subscribe(
  ctx: ServiceContext,
  input: WebhookCreate,
  opts: { allowLocalTargets: boolean; events: EventCatalogue },
): Promise<Subscribed> {
  const { allowLocalTargets } = opts;
  const field = input.target_url !== undefined ? 'target_url' : 'targetUrl';
  const target = input.target_url ?? input.targetUrl;
  if (target === undefined || target === '') {
    throw new ApiError('invalid_request', 'target_url is required', 'target_url');
  }
  const url = parseTarget(target, field, allowLocalTargets);
  const req = readEvents(ctx, opts.events, input);
  await checkReachable(url, field, allowLocalTargets);
  const stored = target.trim();
  const found = existing(ctx, req, stored);
  const kept = found.filter((h) => h !== undefined);
  if (kept.length === found.length) {
    return { created: false, group: req.group, webhooks: kept, secret: null };
  }
  if (ctx.ws.count('webhooks') + found.length - kept.length > MAX_SUBSCRIPTIONS) {
    throw new ApiError(
      'invalid_request',
      `a workspace holds at most ${MAX_SUBSCRIPTIONS} webhook subscriptions`,
    );
  }
  const secret = randomToken(SECRET_PREFIX, 32);
  const groupId = newId();
  const now = ctx.clock.iso();
  const webhooks = ctx.ws.transaction((tx) => {
    joinGroup(ctx, tx, kept, groupId, secret);
    return req.events.map((event, i) => {
      const had = found[i];
      if (had) {
        return tx.get('webhooks', had.id) ?? had;
      }
      return tx.put('webhooks', {
        id: newId(),
        object: 'webhook',
        event,
        target_url: stored,
        // spec, Conventions: a value the service does not have is null, not an empty string.
        description: input.description || null,
        filters: req.filters,
        credential_id: ctx.credential.id,
        group_id: groupId,
        secrets: [{ secret, expires_at: null }],
        consecutive_failures: 0,
        disabled_at: null,
        created_at: now,
        updated_at: now,
      });
    });
  });
  return { created: true, group: req.group, webhooks, secret };
}

/**
 * decisions.md: an `events` list that is partly subscribed already gets one secret for the whole
 * list (spec, Signature verification 4), so the existing subscriptions, with those that share
 * their secret, move onto the new one as in a rotation: the old secrets sign for 24 hours more.
 */
function joinGroup(
  ctx: ServiceContext,
  tx: TxScope<WorkspaceCollections>,
  existing: Webhook[],
  groupId: string,
  secret: string,
): void {
  const groups = new Set(existing.map((h) => h.group_id));
  const nowMs = ctx.clock.nowMs();
  for (const hook of tx.all('webhooks')) {
    if (groups.has(hook.group_id)) {
      tx.put('webhooks', {
        ...hook,
        group_id: groupId,
        secrets: rollSecret(hook, secret, nowMs),
        updated_at: ctx.clock.iso(),
      });
    }
  }
}

/**
 * spec, Authentication 4: revoking a credential switches off the webhooks it created (their
 * waiting deliveries are cancelled by the worker, which reads the change).
 */
export function disableWebhooksOf(
  ws: TxScope<WorkspaceCollections>,
  credentialId: string,
  now: string,
): void {
  for (const hook of ws.all('webhooks')) {
    if (hook.credential_id === credentialId && hook.disabled_at === null) {
      ws.put('webhooks', { ...hook, disabled_at: now, updated_at: now });
    }
  }
}

/** spec, GET /events: every event with the filters POST /webhooks accepts for it. */
export function eventCatalogue(
  ctx: ServiceContext,
  events: EventCatalogue,
): z.infer<typeof EventDefinitionSchema>[] {
  return events.all.map((def) => ({
    event: def.event,
    resource: def.resource,
    label: def.label,
    description: def.description,
    filters: def.filters.map((f) => ({
      key: f.key,
      label: f.label,
      kind: f.kind,
      ...(f.values === undefined
        ? {}
        : { values: [...(typeof f.values === 'function' ? f.values(ctx) : f.values)] }),
    })),
  }));
}
