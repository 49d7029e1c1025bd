import { eventDef, familyOfColl } from '../events';
import { ApiError } from '../platform/errors';
import { WILDCARD } from '../platform/family';
import { fieldOf } from '../platform/openapi/validation';
import type { Runtime } from '../platform/runtime';
import { appContext } from '../platform/service-context';
import type { Rec } from '../store/types';
import type { StoredRecord, WorkspaceSnapshot } from './format';

// decisions.md, Snapshots: what a restore, a copy, a store import and a served bundle check before
// they write anything, so svc never serves a record it could not have made.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const refuse = (message: string, field: string): never => {
  throw new ApiError('invalid_request', message, field);
};

/** Whether a collection's records are named by the API with their id: a lower-case UUID. */
export const namedById = (coll: string): boolean =>
  coll === 'webhooks' || familyOfColl(coll)?.records !== undefined;

/** A record id as the API names records of `coll`; refused with `field` when it is not. */
export function checkId(coll: string, id: string, field: string): void {
  if (namedById(coll) && !UUID.test(id)) {
    refuse(`a ${coll} id is a lower-case UUID, not ${id}`, field);
  }
}

/**
 * The frame of a workspace snapshot: ids unique within a collection and among the keys, record and
 * key ids as the API names them, the keys and file bytes of this workspace.
 */
export function checkFrame(snap: WorkspaceSnapshot): void {
  for (const [name, records] of Object.entries(snap.collections)) {
    const seen = new Set<string>();
    records.forEach((rec, i) => {
      checkId(name, rec.id, `collections.${name}[${i}].id`);
      if (seen.has(rec.id)) {
        refuse(`two records of ${name} have id ${rec.id}`, `collections.${name}[${i}].id`);
      }
      seen.add(rec.id);
    });
  }
  const ids = new Set<string>();
  const hashes = new Set<string>();
  snap.keys.forEach((key, i) => {
    if (key.id !== key.id.toLowerCase()) {
      refuse(`a key id is a lower-case UUID, not ${key.id}`, `keys[${i}].id`);
    }
    if (key.workspace_id.toLowerCase() !== snap.workspace.id.toLowerCase()) {
      refuse('a key of the snapshot belongs to another workspace', `keys[${i}].workspace_id`);
    }
    if (ids.has(key.id)) {
      refuse(`two keys have id ${key.id}`, `keys[${i}].id`);
    }
    if (hashes.has(key.hash)) {
      refuse('two keys have the same hash', `keys[${i}].hash`);
    }
    ids.add(key.id);
    hashes.add(key.hash);
  });
  const files = new Set((snap.collections.files ?? []).map((f) => f.id));
  for (const id of Object.keys(snap.file_bytes)) {
    if (!files.has(id)) {
      refuse(`file_bytes names no file: ${id}`, `file_bytes.${id}`);
    }
  }
}

/** The records a restore put, by collection, with their place in the list they came in. */
export type Written = Map<string, { rec: StoredRecord; at: number; before?: Rec | undefined }[]>;

/** Where a written record stands in the body that carried it, for a refusal's `field`. */
export type FieldAt = (coll: string, at: number, rec: StoredRecord) => string;

const inCollections: FieldAt = (coll, at) => `collections.${coll}[${at}]`;

/**
 * Every record a restore writes, shown as the API would show it and checked against the API's
 * own schema, inside the restore's transaction: a record the API could not answer is refused
 * (and the whole restore with it) rather than served broken. Only written records are checked,
 * so a restore after a few writes checks those few. A subscription, which the API shows only to
 * its credential, is checked for what its deliveries need: a target URL and a known event.
 */
export function checkShown(
  rt: Runtime,
  wsId: string,
  written: Written,
  fieldAt: FieldAt = inCollections,
): void {
  if (written.size === 0) {
    return; // a workspace the restore empties (and removes) has nothing to show
  }
  const ctx = appContext(rt, wsId, rt.config.publicUrl);
  for (const [coll, list] of written) {
    const records = familyOfColl(coll)?.records;
    for (const { rec, at } of list) {
      const field = fieldAt(coll, at, rec);
      if (coll === 'webhooks') {
        checkSubscription(rec, field);
      }
      if (records === undefined) {
        continue;
      }
      let shown: unknown;
      try {
        shown = records.present(ctx, rec as never);
      } catch {
        refuse(`a ${coll} record svc cannot show`, field);
      }
      const parsed = records.schema.safeParse(shown);
      const issue = parsed.success ? undefined : parsed.error.issues[0];
      if (issue) {
        refuse(`a ${coll} record: ${issue.message}`, `${field}.${fieldOf(issue.path) ?? ''}`);
      }
    }
  }
}

function checkSubscription(rec: StoredRecord, field: string): void {
  let target: URL | undefined;
  try {
    target = new URL(String(rec.target_url));
  } catch {
    target = undefined;
  }
  if (target === undefined || !/^https?:$/.test(target.protocol)) {
    refuse('a subscription targets an http or https URL', `${field}.target_url`);
  }
  const event = String(rec.event);
  if (event !== WILDCARD && eventDef(event) === undefined) {
    refuse(`a subscription's event is one of GET /v1/events or *, not ${event}`, `${field}.event`);
  }
}
