import type { ApiKey, Workspace } from '../platform/auth';
import { LAST_INSTANT } from '../platform/clock';
import { ApiError } from '../platform/errors';
import { holderOf } from '../platform/holder-of';
import { whileHeld } from '../platform/http/residency';
import type { Runtime } from '../platform/runtime';
import { dumpScope, type Rec, type Tx } from '../store';
import type { GlobalCollections, Name, WorkspaceCollections } from '../store/collections';
import { checkFrame, checkShown, type Written } from './checks';
import { type StoredRecord, WORKSPACE_SNAPSHOT, type WorkspaceSnapshot } from './format';
import { holdClaimed } from './hold';

type GlobalColl = Name<GlobalCollections>;
type WsColl = Name<WorkspaceCollections>;

/** What of the global scope belongs to one workspace: its keys, OAuth grants and replays. */
export interface Credentials {
  keys: ApiKey[];
  hashes: Rec[];
  connections: Rec[];
  tokens: Rec[];
  codes: Rec[];
  idempotency: Rec[];
}

export function credentialsOf(
  read: (coll: GlobalColl) => Iterable<Rec>,
  wsId: string,
): Credentials {
  const keys = [...(read('api_keys') as Iterable<ApiKey>)].filter((k) => k.workspace_id === wsId);
  const keyIds = new Set(keys.map((k) => k.id));
  const hashes = [...read('key_hashes')].filter((h) => keyIds.has(field(h, 'key_id')));
  const connections = [...read('oauth_connections')].filter(
    (c) => field(c, 'workspace_id') === wsId,
  );
  const connectionIds = new Set(connections.map((c) => c.id));
  const tokens = [...read('oauth_tokens')].filter((t) =>
    connectionIds.has(field(t, 'connection_id')),
  );
  const codes = [...read('oauth_codes')].filter((c) => field(c, 'workspace_id') === wsId);
  const credentialIds = new Set([...keyIds, ...connectionIds]);
  const idempotency = [...read('idempotency_keys')].filter(
    (r) => credentialIds.has(field(r, 'credential_id')) || field(r, 'workspace_id') === wsId,
  );
  return { keys, hashes, connections, tokens, codes, idempotency };
}

const field = (rec: Rec, name: string): string => String((rec as Record<string, unknown>)[name]);

/** One workspace as it is now: records, keys as hashes, subscriptions and deliveries, bytes. */
export async function exportWorkspace(rt: Runtime, wsId: string): Promise<WorkspaceSnapshot> {
  const ws = rt.store.global.get('workspaces', wsId);
  if (!ws) {
    throw new ApiError('not_found', 'no such workspace');
  }
  const own = credentialsOf((coll) => rt.store.global.values(coll), wsId);
  const hashOf = new Map(own.hashes.map((h) => [field(h, 'key_id'), h.id]));
  const collections = dumpScope(rt.store, wsId) as Record<string, StoredRecord[]>;
  const snapshot: WorkspaceSnapshot = {
    format: WORKSPACE_SNAPSHOT,
    version: 1,
    svc_version: SVC_VERSION,
    taken_at: rt.clocks.of(wsId).iso(),
    workspace: { ...ws },
    keys: own.keys.map((k) => ({ ...k, hash: String(hashOf.get(k.id) ?? '') })),
    collections,
    idempotency: own.idempotency as StoredRecord[],
    oauth: {
      connections: own.connections as StoredRecord[],
      tokens: own.tokens as StoredRecord[],
      codes: own.codes as StoredRecord[],
    },
    file_bytes: {},
  };
  for (const file of collections.files ?? []) {
    const bytes = await rt.files.bytes(wsId, file.id);
    if (bytes) {
      snapshot.file_bytes[file.id] = bytes.toString('base64');
    }
  }
  return snapshot;
}

/**
 * Puts workspace `wsId` back as `snap` holds it, in one transaction that raises no events: the
 * same id, the same keys (those made since are gone), the same records, subscriptions and
 * deliveries. Due work (purges, retries, overdue invoices) follows from the restored records.
 */
export async function restoreWorkspace(
  rt: Runtime,
  wsId: string,
  snap: WorkspaceSnapshot,
): Promise<Workspace> {
  if (!rt.store.global.get('workspaces', wsId)) {
    throw new ApiError('not_found', 'no such workspace');
  }
  if (snap.workspace.id.toLowerCase() !== wsId) {
    throw new ApiError(
      'invalid_request',
      `this snapshot is of workspace ${snap.workspace.id}: restore it there, or make a new workspace from it with POST /__admin/workspaces {snapshot}`,
      'workspace.id',
    );
  }
  checkFrame(snap);
  checkCredentials(rt, wsId, snap);
  checkClockLead(rt, snap);
  return whileHeld(holdClaimed(rt, wsId, snap.collections), () => restoreHeld(rt, wsId, snap));
}

async function restoreHeld(rt: Runtime, wsId: string, snap: WorkspaceSnapshot): Promise<Workspace> {
  await writeBytes(rt, wsId, snap.file_bytes, (id) => id);
  const end = rt.store.global.get('workspaces', wsId)?.expires_at ?? null;
  return rt.store.transaction(
    (tx) => {
      restoreCredentials(tx, wsId, snap);
      const written = restoreRecords(rt, tx, wsId, snap);
      checkPortals(rt, wsId, written);
      // A restore puts back the data and the clock; when the workspace ends was set when it was
      // made, and a snapshot does not lift or move it (decisions.md, Snapshots).
      const workspace = tx.global.put('workspaces', {
        ...snap.workspace,
        id: wsId,
        expires_at: end,
      });
      checkShown(rt, wsId, written);
      return workspace;
    },
    { quiet: true },
  );
}

/** The workspace's keys, OAuth grants and replays made as the snapshot holds them. */
function restoreCredentials(tx: Tx, wsId: string, snap: WorkspaceSnapshot): void {
  const current = credentialsOf((coll) => tx.global.all(coll as never) as Rec[], wsId);
  replace(tx, 'g', 'api_keys', current.keys, snap.keys.map(keyRecord));
  const hashes = snap.keys.map((k) => ({ id: k.hash, key_id: k.id }));
  replace(tx, 'g', 'key_hashes', current.hashes, hashes);
  // A grant or replay the snapshot names that is not this workspace's is another's.
  const grants: [GlobalColl, Rec[], StoredRecord[], string][] = [
    ['oauth_connections', current.connections, snap.oauth.connections, 'oauth.connections'],
    ['oauth_tokens', current.tokens, snap.oauth.tokens, 'oauth.tokens'],
    ['oauth_codes', current.codes, snap.oauth.codes, 'oauth.codes'],
    ['idempotency_keys', current.idempotency, snap.idempotency, 'idempotency'],
  ];
  for (const [coll, now, wanted, at] of grants) {
    replace(tx, 'g', coll, now, wanted, undefined, {
      taken: (rec) => tx.global.get(coll as never, rec.id) !== undefined,
      field: (i) => `${at}[${i}].id`,
    });
  }
}

/** The workspace's records made as the snapshot holds them; answers those written. */
function restoreRecords(rt: Runtime, tx: Tx, wsId: string, snap: WorkspaceSnapshot): Written {
  const names = new Set([...rt.store.collections(wsId), ...Object.keys(snap.collections)]);
  const written: Written = new Map();
  for (const name of names) {
    replace(tx, wsId, name, rt.store.values(wsId, name), snap.collections[name] ?? [], written, {
      // The control API finds a record by its id alone: a UUID names one record on svc.
      taken: (rec) => UUID.test(rec.id) && holderOf(rt.store, name as WsColl, rec.id) !== undefined,
      field: (i) => `collections.${name}[${i}].id`,
    });
  }
  return written;
}

/**
 * Makes `current` (the records there now) into `wanted`: puts each wanted record that differs,
 * deletes the rest. A restore after a few writes then journals those few, not the workspace.
 */
export function replace(
  tx: Tx,
  scope: string,
  coll: string,
  current: Iterable<Rec>,
  wanted: Iterable<StoredRecord>,
  written?: Written,
  claim?: Claim,
): void {
  const scoped = tx.scope<Record<string, Rec>>(scope);
  const now = new Map<string, Rec>();
  for (const rec of current) {
    now.set(rec.id, rec);
  }
  let at = 0;
  for (const rec of wanted) {
    const there = now.get(rec.id);
    if (there === undefined && claim?.taken(rec)) {
      throw new ApiError('invalid_request', `${rec.id} is another workspace's`, claim.field(at));
    }
    now.delete(rec.id);
    if (there === undefined || !sameJson(there, rec)) {
      scoped.put(coll, rec);
      if (written) {
        written.set(coll, [...(written.get(coll) ?? []), { rec, at, before: there }]);
      }
    }
    at += 1;
  }
  for (const id of now.keys()) {
    scoped.delete(coll, id);
  }
}

/** Whether two JSON values are equal (records are JSON: no dates, maps or cycles). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return false;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((v, i) => sameJson(v, b[i]))
    );
  }
  const ak = Object.keys(a);
  if (ak.length !== Object.keys(b).length) {
    return false;
  }
  const bo = b as Record<string, unknown>;
  return ak.every((k) => k in bo && sameJson((a as Record<string, unknown>)[k], bo[k]));
}

/** A record a restore would take from another workspace: refused, naming where it stands. */
export interface Claim {
  taken(rec: StoredRecord): boolean;
  field(at: number): string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A restored job's homeowner link must not open another workspace's job as well. */
function checkPortals(rt: Runtime, wsId: string, written: Written): void {
  // A job keeping the link it had here cannot take another workspace's: only new links are looked for.
  const jobs = (written.get('jobs') ?? []).filter(
    ({ rec, before }) => rec.portal_token !== (before as StoredRecord | undefined)?.portal_token,
  );
  if (jobs.length === 0) {
    return;
  }
  const elsewhere = new Set<string>();
  for (const ws of rt.store.global.values('workspaces')) {
    // One away from memory (PostgreSQL) holds none of these links: the door loaded every holder.
    if (ws.id !== wsId && !rt.store.isAway(ws.id)) {
      for (const job of rt.store.values(ws.id, 'jobs')) {
        elsewhere.add(String((job as StoredRecord).portal_token));
      }
    }
  }
  for (const { rec, at } of jobs) {
    if (typeof rec.portal_token === 'string' && elsewhere.has(rec.portal_token)) {
      throw new ApiError(
        'invalid_request',
        "a job's portal_token is another workspace's job's",
        `collections.jobs[${at}].portal_token`,
      );
    }
  }
}

/** The restored clock stays before the year 9999, as every move of a clock does. */
function checkClockLead(rt: Runtime, snap: WorkspaceSnapshot): void {
  const lead = snap.workspace.clock_offset_ms ?? 0;
  if (rt.clock.nowMs() + lead >= LAST_INSTANT) {
    throw new ApiError(
      'invalid_request',
      "the workspace's clock would pass the year 9999",
      'workspace.clock_offset_ms',
    );
  }
}

export const keyRecord = ({ hash: _hash, ...key }: WorkspaceSnapshot['keys'][number]): ApiKey =>
  key;

/** A restored key must not be one of another workspace's: its hash would log in there. */
function checkCredentials(rt: Runtime, wsId: string, snap: WorkspaceSnapshot): void {
  snap.keys.forEach((key, i) => {
    const other = rt.store.global.get('api_keys', key.id);
    const byHash = rt.store.global.get('key_hashes', key.hash);
    const owner = byHash && rt.store.global.get('api_keys', String(field(byHash, 'key_id')));
    if (other && other.workspace_id !== wsId) {
      throw new ApiError(
        'invalid_request',
        'a key of the snapshot is a key of another workspace',
        `keys[${i}].id`,
      );
    }
    if (owner && owner.workspace_id !== wsId) {
      throw new ApiError(
        'invalid_request',
        "a key of the snapshot has the hash of another workspace's key",
        `keys[${i}].hash`,
      );
    }
  });
}

/** Keeps the snapshot's file bytes under the ids the restored records carry. */
export async function writeBytes(
  rt: Runtime,
  wsId: string,
  bytes: Record<string, string>,
  idOf: (id: string) => string,
): Promise<void> {
  for (const [id, base64] of Object.entries(bytes)) {
    await rt.files.write(wsId, idOf(id), Buffer.from(base64, 'base64'));
  }
}

export type { WsColl };
