import { type Access, mintApiKey } from '../platform/auth';
import type { Runtime } from '../runtime';
import { withFreshIds } from '../seed/remap';
import type { StoredRecord, WorkspaceSnapshot } from './format';
import { checkFrame, writeBytes } from './workspace';

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
): Promise<MadeFromSnapshot> {
  checkFrame(snap);
  const collections = Object.fromEntries(
    Object.entries(snap.collections).filter(([coll]) => !HISTORY.has(coll)),
  );
  const ids = [
    snap.workspace.id,
    ...snap.keys.map((k) => k.id),
    ...Object.values(collections).flatMap((records) => records.map((r) => r.id)),
  ];
  const fresh = withFreshIds(
    {
      workspace: snap.workspace,
      keys: snap.keys,
      collections,
      fileIds: Object.keys(snap.file_bytes),
    },
    ids,
  );
  const wsId = fresh.workspace.id;
  const oldFileIds = Object.keys(snap.file_bytes);
  const newFileId = new Map(fresh.fileIds.map((to, i) => [oldFileIds[i], to]));
  await writeBytes(rt, wsId, snap.file_bytes, (id) => newFileId.get(id) ?? id);
  const now = rt.clock.iso();
  return rt.store.transaction(
    (tx) => {
      const workspace = tx.global.put('workspaces', {
        ...fresh.workspace,
        id: wsId,
        name: name ?? fresh.workspace.name,
      });
      const ws = tx.scope<Record<string, StoredRecord>>(wsId);
      for (const [coll, records] of Object.entries(fresh.collections)) {
        for (const rec of records) {
          ws.put(coll, rec);
        }
      }
      const minted: MadeFromSnapshot['other_keys'] = [];
      for (const key of fresh.keys) {
        const made = mintApiKey(tx.global, {
          id: key.id,
          name: key.name,
          access: key.access,
          workspaceId: wsId,
          now,
        });
        // The key keeps its history; only its secret is new.
        tx.global.put('api_keys', {
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
        const made = mintApiKey(tx.global, { workspaceId: wsId, name, access, now });
        return { id: made.record.id, key: made.key };
      };
      const keys = { write: pick('write'), read: pick('read') };
      return { id: wsId, name: workspace.name, keys, other_keys: minted };
    },
    { quiet: true },
  );
}
