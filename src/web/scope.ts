import { faultElsewhere, keyElsewhere, recordElsewhere } from '../admin/access/owns';
import type { Workspace } from '../platform/auth';
import type { Runtime } from '../platform/runtime';
import type { WorkspaceCollections } from '../store';
import type { Name } from '../store/collections';

// decisions.md, Control API access: a person signed in to the web app with a workspace's control
// token sees that workspace alone, as the token does on the control API. The pages that list
// (the home page, the inspector's workspaces, requests, webhooks and faults) show its own; a page
// of another workspace's thing, or of the whole server (its clock, making workspaces, registering
// OAuth apps), is refused. A page this does not name is refused, so a new one is closed until it
// is placed here.

type Query = (name: string) => string | undefined;

/** The record pages at /<collection>/{id}, each its own workspace's. */
const RECORD_PAGES: ReadonlySet<string> = new Set<Name<WorkspaceCollections>>([
  'jobs',
  'contacts',
  'tasks',
  'estimates',
  'invoices',
  'payments',
  'files',
  'pins',
  'storm_lists',
]);

/** The inspector's record actions at /inspector/<family>/{id}/…. */
const INSPECTOR_RECORDS: Readonly<Record<string, Name<WorkspaceCollections>>> = {
  webhooks: 'webhooks',
  deliveries: 'deliveries',
};

/** A list that shows one workspace may not be asked for another's. */
const otherNamed = (query: Query, wsId: string) => {
  const named = query('workspace_id')?.trim().toLowerCase();
  return named !== undefined && named !== '' && named !== wsId;
};

function inspectorRefusal(
  rt: Pick<Runtime, 'store' | 'faults'>,
  method: string,
  [head, id, ...rest]: string[],
  query: Query,
  wsId: string,
): string | undefined {
  const named = id?.toLowerCase();
  switch (head) {
    case undefined:
      return undefined; // its workspace alone
    case 'workspaces':
      if (named === undefined) {
        return method === 'GET' ? undefined : 'making workspaces';
      }
      return named === wsId ? undefined : 'another workspace';
    case 'keys':
      return named !== undefined && keyElsewhere(rt, named, wsId)
        ? "another workspace's key"
        : undefined;
    case 'requests':
    case 'webhooks':
      if (named === undefined || (head === 'requests' && named === 'stream')) {
        return otherNamed(query, wsId) ? "another workspace's list" : undefined;
      }
      if (head === 'requests') {
        return undefined; // the call's page shows its own workspace's calls alone
      }
      break;
    case 'faults':
      if (named === undefined || (named === 'clear' && rest.length === 0)) {
        return undefined; // its own faults: listed, added and cleared
      }
      return faultElsewhere(rt, named, wsId) ? 'a fault not limited to its workspace' : undefined;
    case 'clock':
      return "the server's clock";
  }
  const coll = INSPECTOR_RECORDS[head];
  if (coll !== undefined && named !== undefined) {
    return recordElsewhere(rt, coll, named, wsId) ? `another workspace's ${head}` : undefined;
  }
  return 'this page';
}

/**
 * Why a person signed in with workspace `wsId`'s control token may not open `path`; undefined
 * when they may. Records svc does not hold pass on to the page's own 404.
 */
export function webRefusal(
  rt: Pick<Runtime, 'store' | 'faults'>,
  method: string,
  path: string,
  query: Query,
  wsId: string,
): string | undefined {
  const parts = path.split('/').filter((s) => s !== '');
  const [head, id] = parts;
  const named = id?.toLowerCase();
  if (head === undefined) {
    return undefined; // the home page lists its workspace alone
  }
  if (head === 'inspector') {
    return inspectorRefusal(rt, method, parts.slice(1), query, wsId);
  }
  if (head === 'workspaces' && named !== undefined) {
    return named === wsId ? undefined : 'another workspace';
  }
  if (head === 'map') {
    const pin = query('pin');
    return pin && recordElsewhere(rt, 'pins', pin.toLowerCase(), wsId)
      ? "another workspace's pin"
      : undefined;
  }
  if (RECORD_PAGES.has(head) && named !== undefined) {
    const coll = head as Name<WorkspaceCollections>;
    return recordElsewhere(rt, coll, named, wsId) ? `another workspace's ${head}` : undefined;
  }
  return 'this page';
}

/** The workspaces a page lists: every one, or (`scope` given) a control-token sign-in's own. */
export function shownWorkspaces(
  rt: Pick<Runtime, 'store'>,
  scope: string | undefined,
): Workspace[] {
  if (scope === undefined) {
    return [...rt.store.global.values('workspaces')];
  }
  const ws = rt.store.global.get('workspaces', scope);
  return ws ? [ws] : [];
}
