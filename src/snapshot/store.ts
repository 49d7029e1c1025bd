import { z } from '@hono/zod-openapi';
import { ApiError } from '../platform/errors';
import { whileHeld } from '../platform/http/residency';
import type { Runtime } from '../platform/runtime';
import { advanceClock, type StoreMeta } from '../platform/store-meta';
import { dumpScope, GLOBAL, type Rec } from '../store';
import { FORMAT, FORMAT_VERSION } from '../store/types';
import { checkId, checkShown, type FieldAt, type Written } from './checks';
import { StoredRecordSchema } from './format';
import { holdEvery } from './hold';
import { replace } from './workspace';

const inStore =
  (wsId: string): FieldAt =>
  (coll, _at, rec) =>
    `workspaces.${wsId}.${coll}.${rec.id}`;

const Records = z.record(z.string().min(1).max(200), StoredRecordSchema);
const Scope = z.record(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/), Records);

/** The whole store: the data file's own format, with uploaded files' bytes beside it. */
export const StoreSnapshotSchema = z
  .object({
    format: z.literal(FORMAT),
    version: z.literal(FORMAT_VERSION),
    seq: z.number().int().min(0),
    global: Scope,
    workspaces: z.record(z.uuid(), Scope),
    /** Uploaded files' bytes, base64, by workspace id and file id. */
    file_bytes: z.record(z.uuid(), z.record(z.uuid(), z.base64())).optional(),
  })
  .openapi('StoreSnapshot');

export type StoreSnapshot = z.infer<typeof StoreSnapshotSchema>;
type ScopeRecords = StoreSnapshot['global'];

const byId = (records: readonly Rec[]) => Object.fromEntries(records.map((r) => [r.id, r]));

function scopeOf(rt: Runtime, scope: string): ScopeRecords {
  return Object.fromEntries(
    Object.entries(dumpScope(rt.store, scope)).map(([coll, records]) => [coll, byId(records)]),
  ) as ScopeRecords;
}

/** Everything the server holds: every workspace, every key (as its hash), the clock's offset. */
export async function exportStore(rt: Runtime): Promise<StoreSnapshot> {
  return whileHeld(holdEvery(rt), () => exportHeld(rt));
}

async function exportHeld(rt: Runtime): Promise<StoreSnapshot> {
  const out: StoreSnapshot = {
    format: FORMAT,
    version: FORMAT_VERSION,
    seq: rt.store.seq,
    global: scopeOf(rt, GLOBAL),
    workspaces: {},
    file_bytes: {},
  };
  for (const wsId of rt.store.scopes()) {
    const scope = scopeOf(rt, wsId);
    out.workspaces[wsId] = scope;
    for (const id of Object.keys(scope.files ?? {})) {
      const bytes = await rt.files.bytes(wsId, id);
      if (bytes) {
        out.file_bytes ??= {};
        out.file_bytes[wsId] ??= {};
        out.file_bytes[wsId][id] = bytes.toString('base64');
      }
    }
  }
  return out;
}

/**
 * Replaces the whole store with `snap`, in one transaction that raises no events. The cursor
 * secret stays this server's (cursors it handed out stay valid); the clock moves forward to the
 * snapshot's if that is later, and never back (decisions.md, Snapshots).
 */
export async function importStore(
  rt: Runtime,
  snap: StoreSnapshot,
  /** Where a workspace's record stands in the body that carried it (default: the store's own). */
  fieldAt?: (wsId: string) => FieldAt,
): Promise<{ workspaces: number; records: number }> {
  checkIds(snap);
  return whileHeld(holdEvery(rt, true), () => importHeld(rt, snap, fieldAt));
}

async function importHeld(
  rt: Runtime,
  snap: StoreSnapshot,
  fieldAt: ((wsId: string) => FieldAt) | undefined,
): Promise<{ workspaces: number; records: number }> {
  const bytes = Object.entries(snap.file_bytes ?? {}).flatMap(([wsId, files]) =>
    Object.entries(files).map(([id, base64]) => ({ wsId, id, base64 })),
  );
  for (const { wsId, id } of bytes) {
    if (snap.workspaces[wsId]?.files?.[id] === undefined) {
      throw new ApiError('invalid_request', 'file_bytes names no file', `file_bytes.${wsId}.${id}`);
    }
  }
  for (const { wsId, id, base64 } of bytes) {
    await rt.files.write(wsId, id, Buffer.from(base64, 'base64'));
  }
  const meta = rt.store.global.get('meta', 'store');
  const imported = snap.global.meta?.store as Partial<StoreMeta> | undefined;
  let records = 0;
  rt.store.transaction(
    (tx) => {
      const scopes = new Set([GLOBAL, ...rt.store.scopes(), ...Object.keys(snap.workspaces)]);
      for (const scope of scopes) {
        const wanted = scope === GLOBAL ? snap.global : (snap.workspaces[scope] ?? {});
        const names = new Set([...rt.store.collections(scope), ...Object.keys(wanted)]);
        const written: Written = new Map();
        for (const coll of names) {
          const keep = Object.values(wanted[coll] ?? {});
          replace(tx, scope, coll, rt.store.values(scope, coll), keep, written);
          records += keep.length;
        }
        if (scope !== GLOBAL) {
          checkShown(rt, scope, written, fieldAt?.(scope) ?? inStore(scope));
        }
      }
      if (meta) {
        // The clock is this server's until advanceClock moves it below.
        tx.global.put('meta', { ...meta, seeded: imported?.seeded ?? null });
      }
    },
    { quiet: true },
  );
  // A snapshot without the store's meta (a bundle's workspace) says nothing of the clock.
  const offset = Number(imported?.clock_offset_ms);
  if (imported !== undefined && Number.isFinite(offset) && offset > rt.clock.offsetMs) {
    await advanceClock(rt, rt.clock.nowMs() + (offset - rt.clock.offsetMs));
  }
  return { workspaces: Object.keys(snap.workspaces).length, records };
}

/** A record is filed under its own id: anything else would be two names for one record. */
function checkIds(snap: StoreSnapshot): void {
  const check = (scope: ScopeRecords, path: string) => {
    for (const [coll, records] of Object.entries(scope)) {
      for (const [id, rec] of Object.entries(records)) {
        if (path !== 'global') {
          checkId(coll, id, `${path}.${coll}.${id}.id`);
        }
        if (rec.id !== id) {
          throw new ApiError(
            'invalid_request',
            `a record filed under ${id} has id ${rec.id}`,
            `${path}.${coll}.${id}.id`,
          );
        }
      }
    }
  };
  check(snap.global, 'global');
  for (const [wsId, scope] of Object.entries(snap.workspaces)) {
    check(scope, `workspaces.${wsId}`);
    if (snap.global.workspaces?.[wsId] === undefined) {
      throw new ApiError(
        'invalid_request',
        `workspace ${wsId} has records but no entry in global.workspaces`,
        `workspaces.${wsId}`,
      );
    }
  }
  // A key names its workspace and a hash its key: one pointing nowhere is a key that logs in to
  // nothing, or a credential lookup that finds no key.
  const workspaces = snap.global.workspaces ?? {};
  const keys = snap.global.api_keys ?? {};
  for (const [id, key] of Object.entries(keys)) {
    if (workspaces[String(key.workspace_id)] === undefined) {
      throw new ApiError(
        'invalid_request',
        `key ${id} names a workspace the snapshot does not hold`,
        `global.api_keys.${id}.workspace_id`,
      );
    }
  }
  for (const [hash, entry] of Object.entries(snap.global.key_hashes ?? {})) {
    if (keys[String(entry.key_id)] === undefined) {
      throw new ApiError(
        'invalid_request',
        'a key hash names a key the snapshot does not hold',
        `global.key_hashes.${hash}.key_id`,
      );
    }
  }
}
