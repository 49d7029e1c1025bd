import type { z } from '@hono/zod-openapi';
import {
  type Access,
  type ApiKey,
  mintApiKey,
  mintControlToken,
  type Workspace,
} from '../platform/auth';
import { ApiError } from '../platform/errors';
import type { Profile } from '../platform/family';
import { randomToken } from '../platform/ids';
import type { Runtime } from '../platform/runtime';
import { disableWebhooksOf } from '../resources/webhooks/service';
import { generate, insertWorkspace, type KeyPair } from '../seed';
import { withFreshIds } from '../seed/remap';
import { expiryOf } from '../snapshot/create';
import { credentialsOf } from '../snapshot/workspace';
import { GLOBAL, type Position, type Rec, type Store } from '../store';
import { leased } from '../store/held';
import { type Page, pageInOrder } from './paging';
import type { AdminKeySchema, AdminWorkspaceSchema, DeletedWorkspaceSchema } from './schemas';

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
    expires_at: ws.expires_at ?? null,
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
  only?: string,
): Page<Workspace> {
  // A control token's list holds its own workspace alone.
  const all = [...rt.store.global.values('workspaces')].filter(
    (ws) => only === undefined || ws.id === only,
  );
  return pageInOrder(all, after && departed(rt.store).resume(after, all), limit);
}

/**
 * Where a page goes on from when its cursor names a workspace deleted since: the workspace that
 * stood before it when it went (or before that one, if it went too). The order is the order
 * workspaces were made, which no field of theirs holds, so it is remembered as they go; a cursor
 * naming one deleted before a restart is 400, as any cursor whose place is gone.
 */
class Departed {
  readonly #before = new Map<string, string | null>();

  deleted(id: string, all: readonly Workspace[]): void {
    const at = all.findIndex((ws) => ws.id === id);
    if (this.#before.size >= MAX_DEPARTED) {
      this.#before.clear();
    }
    this.#before.set(id, at > 0 ? (all[at - 1]?.id ?? null) : null);
  }

  /** `after`, or where to go on from when its workspace is gone: null for the start. */
  resume(after: Position, all: readonly Workspace[]): Position | undefined {
    let id: string | null | undefined = after.id;
    while (id !== null && id !== undefined && !all.some((ws) => ws.id === id)) {
      const before = this.#before.get(id);
      if (before === undefined) {
        return after; // not known to have gone: pageInOrder refuses it
      }
      id = before;
    }
    return id === null ? undefined : { created_at: '', id };
  }
}

const MAX_DEPARTED = 100_000;
const departedOf = new WeakMap<Store, Departed>();
function departed(store: Store): Departed {
  let made = departedOf.get(store);
  if (made === undefined) {
    made = new Departed();
    departedOf.set(store, made);
  }
  return made;
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
    expires_in_seconds?: number | undefined;
  },
): Promise<{
  id: string;
  name: string;
  keys: KeyPair;
  control_token: string;
  expires_at: string | null;
}> {
  const seed = input.seed ?? Math.floor(Math.random() * 2 ** 31);
  const drawn = await generate({
    profile: input.profile,
    seed,
    anchorMs: rt.clock.nowMs(),
    name: input.name,
    subscriptionActive: input.subscription_active,
  });
  const records = Object.values(drawn.collections).flat();
  const fresh = withFreshIds(drawn, [drawn.workspace.id, ...records.map((r) => r.id)]);
  // A homeowner's portal link opens whichever job holds its token: two workspaces of one seed
  // must not share them, as they share no id.
  const jobs = fresh.collections.jobs;
  const gen =
    jobs === undefined
      ? fresh
      : {
          ...fresh,
          collections: {
            ...fresh.collections,
            jobs: jobs.map((job) => ({ ...job, portal_token: randomToken('', 24) })),
          },
        };
  const now = rt.clock.iso();
  return rt.store.transaction((tx) => {
    const keys = insertWorkspace(tx, gen, now);
    const expires = expiryOf(rt.clock.nowMs(), input.expires_in_seconds);
    if (expires !== null) {
      tx.global.put('workspaces', { ...gen.workspace, expires_at: expires });
    }
    const control = mintControlToken(tx.global, gen.workspace.id, now);
    return {
      id: gen.workspace.id,
      name: gen.workspace.name,
      keys,
      control_token: control,
      expires_at: expires,
    };
  });
}

const expiryKey = (wsId: string) => `workspace:expire:${wsId}`;

/**
 * A workspace with an end is deleted when its clock passes it, so a CI job that crashed leaves
 * nothing behind: scheduled on its clock when it is made (or restored, or read at start), and
 * checked again when it runs.
 */
export function watchExpiry(rt: Runtime): void {
  const plan = (ws: Workspace | undefined, wsId: string) => {
    const at = ws?.expires_at ? Date.parse(ws.expires_at) : Number.NaN;
    if (Number.isNaN(at)) {
      rt.scheduler.cancel(expiryKey(wsId));
      return;
    }
    rt.scheduler.schedule(expiryKey(wsId), at, () => expire(rt, wsId), wsId);
  };
  for (const ws of rt.store.global.values('workspaces')) {
    plan(ws, ws.id);
  }
  rt.store.onApplied((changes) => {
    for (const change of changes) {
      if (change.scope === GLOBAL && change.coll === 'workspaces') {
        const after = change.after as Workspace | undefined;
        if (after?.expires_at !== (change.before as Workspace | undefined)?.expires_at) {
          plan(after, change.id);
        }
      }
    }
  });
}

/** Deleted once its clock passes its end; with several nodes, under the global scope's lease. */
function expire(rt: Runtime, wsId: string): Promise<void> {
  return leased(rt.store, [GLOBAL], async () => {
    const ws = rt.store.global.get('workspaces', wsId);
    if (ws?.expires_at && Date.parse(ws.expires_at) <= rt.clocks.of(wsId).nowMs()) {
      await deleteWorkspace(rt, wsId);
    }
  });
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
      updated_at: rt.clocks.of(id).iso(),
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
      now: rt.clocks.of(workspaceId).iso(),
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
    const now = rt.clocks.of(key.workspace_id).iso();
    disableWebhooksOf(tx.workspace(key.workspace_id), key.id, now);
    return tx.global.put('api_keys', { ...key, revoked_at: now });
  });
}

/**
 * Deletes workspace `id` and everything of it for good, in one transaction that raises no events
 * (nobody is left to tell): its records (the scope dropped whole, never read), its keys, OAuth
 * grants and kept answers. What svc keeps beside the store goes as the drop commits (runtime.ts,
 * forgetDeleted); the faults that match it go here, where its keys are known.
 */
export async function deleteWorkspace(
  rt: Runtime,
  id: string,
): Promise<z.infer<typeof DeletedWorkspaceSchema>> {
  const order = [...rt.store.global.values('workspaces')];
  const keyIds = rt.store.transaction(
    (tx) => {
      if (!tx.global.get('workspaces', id)) {
        throw new ApiError('not_found', 'no such workspace');
      }
      const own = credentialsOf((coll) => tx.global.all(coll as never) as Rec[], id);
      const global = tx.scope<Record<string, Rec>>('g');
      for (const [coll, records] of [
        ['api_keys', own.keys],
        ['key_hashes', own.hashes],
        ['oauth_connections', own.connections],
        ['oauth_tokens', own.tokens],
        ['oauth_codes', own.codes],
        ['idempotency_keys', own.idempotency],
      ] as const) {
        for (const rec of records) {
          global.delete(coll, rec.id);
        }
      }
      for (const token of tx.global.all('control_tokens')) {
        if (token.workspace_id === id) {
          global.delete('control_tokens', token.id);
        }
      }
      tx.global.delete('workspaces', id);
      tx.drop(id);
      // A fault's key_id names an API key or an OAuth connection.
      return new Set([...own.keys, ...own.connections].map((k) => k.id));
    },
    { quiet: true },
  );
  departed(rt.store).deleted(id, order);
  await rt.faults.forgetWorkspace(id, keyIds);
  return { id, object: 'workspace', deleted: true };
}
