import type { z } from '@hono/zod-openapi';
import { type Access, type ApiKey, mintApiKey, type Workspace } from '../platform/auth';
import { ApiError } from '../platform/errors';
import type { Profile } from '../platform/family';
import type { Runtime } from '../platform/runtime';
import { disableWebhooksOf } from '../resources/webhooks/service';
import { generate, insertWorkspace, type KeyPair } from '../seed';
import { withFreshIds } from '../seed/remap';
import type { Position } from '../store';
import { type Page, pageInOrder } from './paging';
import type { AdminKeySchema, AdminWorkspaceSchema } from './schemas';

export const presentKey = (key: ApiKey): z.infer<typeof AdminKeySchema> => ({
  id: key.id,
  object: 'api_key',
  workspace_id: key.workspace_id,
  name: key.name,
  access: key.access,
  prefix: key.prefix,
  created_at: key.created_at,
  revoked_at: key.revoked_at,
});

export function presentWorkspace(rt: Runtime, ws: Workspace): z.infer<typeof AdminWorkspaceSchema> {
  const keys = [...rt.store.global.values('api_keys')].filter((k) => k.workspace_id === ws.id);
  return {
    id: ws.id,
    object: 'workspace',
    name: ws.name,
    subscription_active: ws.subscription_active,
    timezone: ws.timezone,
    created_at: ws.created_at,
    updated_at: ws.updated_at,
    keys: keys.map(presentKey),
  };
}

/**
 * A page of the workspaces in the order they were made (the store keeps insertion order, across
 * restarts too), after the one at `after`.
 */
export function listWorkspaces(
  rt: Runtime,
  after: Position | undefined,
  limit: number,
): Page<Workspace> {
  return pageInOrder([...rt.store.global.values('workspaces')], after, limit);
}

export function getWorkspace(rt: Runtime, id: string): Workspace {
  const ws = rt.store.global.get('workspaces', id);
  if (!ws) {
    throw new ApiError('not_found', 'no such workspace');
  }
  return ws;
}

export async function createWorkspace(
  rt: Runtime,
  input: {
    name?: string | undefined;
    profile: Profile;
    seed?: number | undefined;
    subscription_active?: boolean | undefined;
  },
): Promise<{ id: string; name: string; keys: KeyPair }> {
  const seed = input.seed ?? Math.floor(Math.random() * 2 ** 31);
  const drawn = await generate({
    profile: input.profile,
    seed,
    anchorMs: rt.clock.nowMs(),
    name: input.name,
    subscriptionActive: input.subscription_active,
  });
  const records = Object.values(drawn.collections).flat();
  const gen = withFreshIds(drawn, [drawn.workspace.id, ...records.map((r) => r.id)]);
  const now = rt.clock.iso();
  const keys = rt.store.transaction((tx) => insertWorkspace(tx, gen, now));
  return { id: gen.workspace.id, name: gen.workspace.name, keys };
}

export function setSubscription(rt: Runtime, id: string, active: boolean): Workspace {
  return rt.store.transaction((tx) => {
    const ws = tx.global.get('workspaces', id);
    if (!ws) {
      throw new ApiError('not_found', 'no such workspace');
    }
    return tx.global.put('workspaces', {
      ...ws,
      subscription_active: active,
      updated_at: rt.clock.iso(),
    });
  });
}

export function createKey(
  rt: Runtime,
  workspaceId: string,
  input: { name?: string | undefined; access: Access },
): { id: string; key: string; access: Access } {
  getWorkspace(rt, workspaceId);
  const minted = rt.store.transaction((tx) =>
    mintApiKey(tx.global, {
      workspaceId,
      name: input.name ?? (input.access === 'write' ? 'API key' : 'Read-only API key'),
      access: input.access,
      now: rt.clock.iso(),
    }),
  );
  return { id: minted.record.id, key: minted.key, access: minted.record.access };
}

/**
 * spec, Authentication 4: revoking takes effect at once and switches off the webhooks the key
 * created. Revoking twice is harmless.
 */
export function revokeKey(rt: Runtime, id: string): ApiKey {
  return rt.store.transaction((tx) => {
    const key = tx.global.get('api_keys', id);
    if (!key) {
      throw new ApiError('not_found', 'no such key');
    }
    if (key.revoked_at !== null) {
      return key;
    }
    const now = rt.clock.iso();
    disableWebhooksOf(tx.workspace(key.workspace_id), key.id, now);
    return tx.global.put('api_keys', { ...key, revoked_at: now });
  });
}
