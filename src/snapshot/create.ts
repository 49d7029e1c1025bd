import { type Access, mintApiKey, mintControlToken } from '../platform/auth';
import { whileHeld } from '../platform/http/residency';
import { newId, randomToken } from '../platform/ids';
import type { Runtime } from '../platform/runtime';
import { withFreshIds } from '../seed/remap';
import { checkFrame, checkShown, type Written } from './checks';
import type { StoredRecord, WorkspaceSnapshot } from './format';
import { holdClaimed } from './hold';
import { writeBytes } from './workspace';

interface Making {
  wsId: string;
  fresh: ReturnType<typeof freshCopy>;
  name: string | undefined;
  offset: number;
  nowMs: number;
  now: string;
  expiresInSeconds: number | undefined;
}

/** The event and delivery history stays with the workspace it happened in (decisions.md). */
const HISTORY = new Set(['webhook_events', 'deliveries', 'pending_updates']);

export interface KeyRef {
  id: string;
  key: string;
}

export interface MadeFromSnapshot {
  id: string;
  name: string;
  keys: { write: KeyRef; read: KeyRef };
  other_keys: (KeyRef & { access: Access; name: string })[];
  control_token: string;
  expires_at: string | null;
}

/**
 * A new workspace holding what `snap` holds, under fresh ids (an admin action names a record by
 * its id alone, so no two workspaces share one): its records, subscriptions and keys, each live
 * key with a new secret, shown once. No OAuth grant, replay or delivery history comes along.
 */
export async function createFromSnapshot(
  rt: Runtime,
  snap: WorkspaceSnapshot,
  name: string | undefined,
  expiresInSeconds?: number,
): Promise<MadeFromSnapshot> {
  checkFrame(snap);
  const fresh = freshCopy(snap);
  const wsId = fresh.workspace.id;
  const oldFileIds = Object.keys(snap.file_bytes);
  const newFileId = new Map(fresh.fileIds.map((to, i) => [oldFileIds[i], to]));
  await writeBytes(rt, wsId, snap.file_bytes, (id) => newFileId.get(id) ?? id);
  // decisions.md, Clock: a new workspace starts at the server's now, or at the snapshot's
  // taken_at if that is later, so that none of its records is from its future.
  const offset = Math.max(0, Date.parse(snap.taken_at) - rt.clock.nowMs());
  const nowMs = rt.clock.nowMs() + offset;
  const now = rt.clock.isoOf(nowMs);
  // A link the copy keeps must not open another workspace's job: those holding one are loaded.
  return whileHeld(holdClaimed(rt, wsId, fresh.collections), async () =>
    made(rt, { wsId, fresh, name, offset, nowMs, now, expiresInSeconds }),
  );
}

function made(
  rt: Runtime,
  { wsId, fresh, name, offset, nowMs, now, expiresInSeconds }: Making,
): MadeFromSnapshot {
  return rt.store.transaction(
    (tx) => {
      const workspace = tx.global.put('workspaces', {
        ...fresh.workspace,
        id: wsId,
        name: name ?? fresh.workspace.name,
        clock_offset_ms: offset,
        expires_at: expiryOf(nowMs, expiresInSeconds),
      });
      const ws = tx.scope<Record<string, StoredRecord>>(wsId);
      const written: Written = new Map();
      const renewed = new Map<string, string>();
      for (const [coll, records] of Object.entries(fresh.collections)) {
        records.forEach((rec, at) => {
          const own = renewSecrets(coll, rec, renewed);
          ws.put(coll, own);
          written.set(coll, [...(written.get(coll) ?? []), { rec: own, at }]);
        });
      }
      checkShown(rt, wsId, written);
      return {
        id: wsId,
        name: workspace.name,
        ...mintKeys(tx.global, wsId, fresh.keys, now),
        control_token: mintControlToken(tx.global, wsId, now),
        expires_at: workspace.expires_at ?? null,
      };
    },
    { quiet: true },
  );
}

/** What the new workspace takes of the snapshot (its history aside), under fresh ids. */
function freshCopy(snap: WorkspaceSnapshot) {
  const keyIds = new Set(snap.keys.map((k) => k.id));
  const collections = Object.fromEntries(
    Object.entries(snap.collections)
      .filter(([coll]) => !HISTORY.has(coll))
      .map(([coll, records]) => [
        coll,
        coll === 'webhooks' ? ownSubscriptions(records, keyIds) : records,
      ]),
  );
  const ids = [
    snap.workspace.id,
    ...snap.keys.map((k) => k.id),
    ...Object.values(collections).flatMap((records) => records.map((r) => r.id)),
  ];
  return withFreshIds(
    {
      workspace: snap.workspace,
      keys: snap.keys,
      collections,
      fileIds: Object.keys(snap.file_bytes),
    },
    ids,
  );
}

/**
 * Each of the snapshot's keys again, with a new secret; the live ones are shown once. The first
 * live write and read keys are the workspace's keys; one it lacks is made.
 */
function mintKeys(
  global: Parameters<typeof mintApiKey>[0],
  wsId: string,
  keys: WorkspaceSnapshot['keys'],
  now: string,
): Pick<MadeFromSnapshot, 'keys' | 'other_keys'> {
  const minted: MadeFromSnapshot['other_keys'] = [];
  for (const key of keys) {
    const made = mintApiKey(global, {
      id: key.id,
      name: key.name,
      access: key.access,
      workspaceId: wsId,
      now,
    });
    // The key keeps its history; only its secret is new.
    global.put('api_keys', {
      ...made.record,
      created_at: key.created_at,
      revoked_at: key.revoked_at,
    });
    if (key.revoked_at === null) {
      minted.push({ id: made.record.id, key: made.key, access: key.access, name: key.name });
    }
  }
  const pick = (access: Access): KeyRef => {
    const at = minted.findIndex((k) => k.access === access);
    const found = at < 0 ? undefined : minted.splice(at, 1)[0];
    if (found) {
      return { id: found.id, key: found.key };
    }
    const name = access === 'write' ? 'Default key' : 'Read-only key';
    const made = mintApiKey(global, { workspaceId: wsId, name, access, now });
    return { id: made.record.id, key: made.key };
  };
  return { keys: { write: pick('write'), read: pick('read') }, other_keys: minted };
}

/**
 * A subscription belongs to the credential that made it; the copy takes the keys, not the OAuth
 * grants, so a subscription an OAuth app made stays behind with its grant.
 */
function ownSubscriptions(records: StoredRecord[], keyIds: Set<string>): StoredRecord[] {
  return records.filter((hook) => keyIds.has(String(hook.credential_id)));
}

/**
 * What must not be shared between two workspaces gets a new value in the copy, one per old value
 * (subscriptions that shared a signing secret and a group still do): signing secrets, subscription
 * groups, and the homeowner's portal link of each job.
 */
function renewSecrets(coll: string, rec: StoredRecord, renewed: Map<string, string>): StoredRecord {
  const again = (old: string, make: () => string) => {
    let next = renewed.get(old);
    if (next === undefined) {
      next = make();
      renewed.set(old, next);
    }
    return next;
  };
  if (coll === 'webhooks') {
    const secrets = (rec.secrets as { secret: string; expires_at: string | null }[]) ?? [];
    return {
      ...rec,
      group_id: again(String(rec.group_id), newId),
      secrets: secrets.map((s) => ({ ...s, secret: again(s.secret, () => randomToken('whsec_')) })),
    };
  }
  if (coll === 'jobs' && typeof rec.portal_token === 'string') {
    return { ...rec, portal_token: again(rec.portal_token, () => randomToken('', 24)) };
  }
  return rec;
}

/**
 * When a new workspace whose clock stands at `nowMs` ends: `seconds` from then on its clock
 * (`expires_in_seconds`), or never (decisions.md, Workspaces).
 */
export const expiryOf = (nowMs: number, seconds: number | undefined): string | null =>
  seconds === undefined ? null : new Date(nowMs + Math.round(seconds * 1000)).toISOString();
