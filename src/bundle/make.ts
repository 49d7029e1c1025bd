import { randomToken } from '../platform/ids';
import { API_REVISION } from '../platform/openapi/document';
import type { LoggedRequest } from '../platform/request-log';
import type { Runtime } from '../platform/runtime';
import type { StoredRecord } from '../snapshot/format';
import { exportWorkspace } from '../snapshot/workspace';
import { BUNDLE, type Bundle } from './format';

/** What a bundle never carries in the clear; each found value is replaced, the same way everywhere. */
// 16 characters or more after the prefix: a key's 4-character `prefix` (svc_live_1h6h) is no secret.
const SECRET = /\b(whsec_|svc_live_|svc_oat_|svc_ort_|svc_ocs_|svc_oac_)[A-Za-z0-9]{16,}/g;

const REDACTED = [
  'API keys: only their sha256 hashes are kept; serving the bundle mints new keys',
  'webhook signing secrets: replaced by new ones, consistently (one secret, one replacement)',
  'any key, token or secret in a logged or remembered body (whsec_, svc_live_, svc_oat_, svc_ort_, svc_ocs_, svc_oac_): replaced',
  'OAuth tokens and codes: left out (the connections are kept)',
  "files' download signing keys: replaced; uploaded bytes: left out",
  'Authorization and X-API-Key headers: never logged, so never here',
];

/**
 * The support bundle of workspace `wsId`: its snapshot, logs, clock and faults, secrets out.
 * `ownFaultsOnly`: asked with the workspace's control token, which sees the faults limited to its
 * workspace alone, not the server's (decisions.md, Control API access).
 */
export async function makeBundle(
  rt: Runtime,
  wsId: string,
  ownFaultsOnly = false,
): Promise<Bundle> {
  const snapshot = await exportWorkspace(rt, wsId);
  const portals = new Map<string, string>();
  const { deliveries = [], ...collections } = snapshot.collections;
  const requests: LoggedRequest[] = [];
  for await (const batch of rt.requestLog.export({ workspace_id: wsId })) {
    requests.push(...batch);
  }
  const faults = rt.faults
    .list()
    .filter((f) => f.state === 'active')
    .filter((f) =>
      f.match.workspace_id === undefined
        ? !ownFaultsOnly
        : f.match.workspace_id.toLowerCase() === wsId,
    );
  const bundle: Bundle = {
    format: BUNDLE,
    version: 1,
    manifest: {
      svc_version: SVC_VERSION,
      interface_revision: API_REVISION,
      created_at: new Date().toISOString(),
      workspace_id: wsId,
      workspace_name: snapshot.workspace.name,
      counts: {
        records: Object.values(collections).reduce((n, list) => n + list.length, 0),
        requests: requests.length,
        deliveries: deliveries.length,
        faults: faults.length,
      },
      redacted: REDACTED,
    },
    clock: { now: rt.clock.iso(), offset_ms: rt.clock.offsetMs },
    snapshot: {
      ...snapshot,
      collections: {
        ...collections,
        files: (collections.files ?? []).map(newLinkKey),
        jobs: (collections.jobs ?? []).map((job) => newPortalToken(job, portals)),
      },
      oauth: { connections: snapshot.oauth.connections, tokens: [], codes: [] },
      file_bytes: {},
    },
    requests: requests as unknown as Bundle['requests'],
    deliveries,
    faults: faults as unknown as Bundle['faults'],
  };
  return scrub(bundle, portals);
}

/** A job's portal link opens the homeowner's page: a new token, replaced wherever it appears. */
function newPortalToken(job: StoredRecord, portals: Map<string, string>): StoredRecord {
  if (typeof job.portal_token !== 'string') {
    return job;
  }
  const token = randomToken('', 24);
  portals.set(job.portal_token, token);
  return { ...job, portal_token: token };
}

/** A file's download links are signed with its own key: a new one, so no link of the case opens. */
const newLinkKey = (file: StoredRecord): StoredRecord =>
  file.link_key === undefined ? file : { ...file, link_key: randomToken('', 32) };

/** Every secret-shaped text in the bundle swapped for a new one of the same kind. */
function scrub(bundle: Bundle, portals: ReadonlyMap<string, string>): Bundle {
  const swapped = new Map<string, string>();
  let text = JSON.stringify(bundle);
  // The old portal links in logged answers (`/portal/<token>`) point at the new tokens.
  text = text.replace(/\/portal\/([A-Za-z0-9]+)/g, (whole, token: string) => {
    const next = portals.get(token);
    return next === undefined ? whole : `/portal/${next}`;
  });
  text = text.replace(SECRET, (found, prefix: string) => {
    let next = swapped.get(found);
    if (next === undefined) {
      next = randomToken(prefix);
      swapped.set(found, next);
    }
    return next;
  });
  return JSON.parse(text) as Bundle;
}
