import { checkNames, FaultInputSchema } from '../admin/faults';
import { API_KEY_PREFIX } from '../platform/auth/credentials';
import { ApiError, under } from '../platform/errors';
import type { Fault } from '../platform/faults';
import { randomToken, sha256Hex } from '../platform/ids';
import { fieldOf } from '../platform/openapi/validation';
import type { NewEntry } from '../platform/request-log/log';
import type { Runtime } from '../platform/runtime';
import { checkFrame } from '../snapshot/checks';
import type { StoredRecord } from '../snapshot/format';
import { importStore, type StoreSnapshot } from '../snapshot/store';
import { FORMAT, FORMAT_VERSION } from '../store/types';
import type { Bundle } from './format';

export interface ServedKey {
  id: string;
  name: string;
  access: 'write' | 'read';
  key: string;
}

const byId = (records: readonly StoredRecord[]) =>
  Object.fromEntries(records.map((r) => [r.id, r]));

/**
 * Brings a bundle's case back on a fresh runtime whose clock already stands where the bundle's
 * did: the workspace as it was (same ids), each live key with a new secret (the bundle holds only
 * hashes), the faults on, and the request log as it was recorded.
 */
export async function loadBundle(rt: Runtime, bundle: Bundle): Promise<ServedKey[]> {
  const snap = bundle.snapshot;
  under('snapshot', () => checkFrame(snap));
  const faults = checkedFaults(bundle);
  const fresh: ServedKey[] = [];
  const keys = snap.keys.map(({ hash: _hash, ...key }) => {
    const secret = randomToken(API_KEY_PREFIX);
    if (key.revoked_at === null) {
      fresh.push({ id: key.id, name: key.name, access: key.access, key: secret });
    }
    return {
      key: { ...key, prefix: secret.slice(0, API_KEY_PREFIX.length + 4) },
      hash: sha256Hex(secret),
    };
  });
  const store: StoreSnapshot = {
    format: FORMAT,
    version: FORMAT_VERSION,
    seq: 0,
    global: {
      workspaces: { [snap.workspace.id]: snap.workspace },
      api_keys: byId(keys.map((k) => k.key)),
      key_hashes: byId(keys.map((k) => ({ id: k.hash, key_id: k.key.id }))),
      oauth_connections: byId(snap.oauth.connections),
      idempotency_keys: byId(snap.idempotency),
    },
    workspaces: {
      [snap.workspace.id]: Object.fromEntries(
        Object.entries({ ...snap.collections, deliveries: bundle.deliveries }).map(
          ([coll, records]) => [coll, byId(records)],
        ),
      ),
    },
  };
  await importStore(rt, store, () => placeIn(bundle));
  faults.forEach((fault, i) => {
    under(`faults[${i}]`, () => checkNames(rt, fault.match));
    rt.faults.restore(fault);
  });
  for (const { id: _id, response_body, response_body_truncated: _t, ...entry } of bundle.requests) {
    rt.requestLog.append({
      ...(entry as unknown as Omit<NewEntry, 'response'>),
      response: { text: typeof response_body === 'string' ? response_body : '' },
    });
  }
  return fresh;
}

/** The bundle's faults, each checked as POST /__admin/faults checks one; ids unique. */
function checkedFaults(bundle: Bundle): Fault[] {
  return bundle.faults.map((fault, i) => {
    const input = FaultInputSchema.safeParse({
      match: fault.match,
      action: fault.action,
      ...(fault.remaining === null ? {} : { times: Math.max(fault.remaining, 1) }),
      probability: fault.probability,
      seed: fault.seed,
    });
    if (!input.success) {
      const issue = input.error.issues[0];
      throw new ApiError(
        'invalid_request',
        issue?.message ?? 'not a fault',
        `faults[${i}]${issue?.path.length ? `.${fieldOf(issue.path)}` : ''}`,
      );
    }
    if (bundle.faults.findIndex((f) => f.id === fault.id) !== i) {
      throw new ApiError('invalid_request', `two faults have id ${fault.id}`, `faults[${i}].id`);
    }
    return fault as unknown as Fault;
  });
}

/** A refusal names the record where the bundle holds it: snapshot.collections.jobs[1].name. */
function placeIn(bundle: Bundle) {
  const places = new Map(
    Object.entries(bundle.snapshot.collections).map(([coll, list]) => [
      coll,
      new Map(list.map((rec, i) => [rec.id, i])),
    ]),
  );
  return (coll: string, _at: number, rec: StoredRecord) =>
    coll === 'deliveries'
      ? `deliveries[${bundle.deliveries.findIndex((d) => d.id === rec.id)}]`
      : `snapshot.collections.${coll}[${places.get(coll)?.get(rec.id) ?? 0}]`;
}
