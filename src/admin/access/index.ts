import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../platform/app-env';
import { CONTROL_TOKEN_PREFIX, sameSecret } from '../../platform/auth';
import { ApiError } from '../../platform/errors';
import { withWorkspace } from '../../platform/http/residency';
import { sha256Hex } from '../../platform/ids';
import type { Runtime } from '../../platform/runtime';
import type { WorkspaceCollections } from '../../store';
import type { Name } from '../../store/collections';
import { faultElsewhere, keyElsewhere, recordElsewhere } from './owns';

// decisions.md, Control API access. Who calls the control API: anyone, on a server started without
// an admin token (svc on 127.0.0.1, as before); else the holder of the admin token (everything),
// or of a workspace's control token (that workspace alone: 403 for anything about another
// workspace or the whole server). A control token is honoured on either kind of server.

type Principal = { kind: 'anyone' } | { kind: 'admin' } | { kind: 'workspace'; id: string };

const refused = () =>
  new ApiError(
    'unauthorized',
    'send the admin token (svc serve --admin-token) or a control token of a workspace as Authorization: Bearer <token>',
  );

function principalOf(rt: Runtime, header: string | undefined): Principal {
  const adminToken = rt.config.adminToken;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
  if (bearer?.startsWith(CONTROL_TOKEN_PREFIX)) {
    const token = rt.store.global.get('control_tokens', sha256Hex(bearer));
    if (!token || !rt.store.global.get('workspaces', token.workspace_id)) {
      throw refused();
    }
    return { kind: 'workspace', id: token.workspace_id };
  }
  if (adminToken === null) {
    return { kind: 'anyone' };
  }
  if (bearer !== undefined && sameSecret(bearer, adminToken)) {
    return { kind: 'admin' };
  }
  throw refused();
}

const forbidden = (what: string) =>
  new ApiError('forbidden', `a control token reaches its own workspace only, not ${what}`);

/** The record families whose app-side actions live at /__admin/<family>/{id}/…. */
const RECORDS: Readonly<Record<string, Name<WorkspaceCollections>>> = {
  jobs: 'jobs',
  contacts: 'contacts',
  estimates: 'estimates',
  invoices: 'invoices',
  payments: 'payments',
  pins: 'pins',
  webhooks: 'webhooks',
  deliveries: 'deliveries',
};

/** Lists a control token reads filtered to its workspace (see scopedTo). */
const LISTS = new Set(['requests', 'webhooks', 'notifications', 'faults']);

/**
 * What a call with workspace `wsId`'s control token may reach: its own workspace's routes, its
 * records, keys and faults, and the lists (filtered to it by their routes); nothing else. A route
 * this does not name is refused, so a new one is closed until it is placed here.
 */
function check(rt: Runtime, method: string, path: string, wsId: string): void {
  const [head = '', id, ...rest] = path.split('/').filter((s) => s !== '');
  const named = id?.toLowerCase();
  if (head === 'workspaces') {
    if (named === undefined) {
      if (method === 'GET') {
        return; // the list shows its workspace alone
      }
      throw forbidden('making workspaces');
    }
    if (named !== wsId) {
      throw forbidden('another workspace');
    }
    return;
  }
  if (head === 'keys' && named !== undefined) {
    if (keyElsewhere(rt, named, wsId)) {
      throw forbidden("another workspace's key");
    }
    return;
  }
  if (head === 'faults' && named !== undefined) {
    if (faultElsewhere(rt, named, wsId)) {
      throw forbidden('a fault not limited to its workspace');
    }
    return;
  }
  const coll = RECORDS[head];
  if (coll !== undefined && named !== undefined && (rest.length > 0 || method !== 'GET')) {
    if (recordElsewhere(rt, coll, named, wsId)) {
      throw forbidden(`another workspace's ${head}`);
    }
    return;
  }
  if (head === 'oauth' && named === 'authorize' && rest.length === 0) {
    return; // its own workspace alone: the route refuses another's (scopedTo)
  }
  if (LISTS.has(head) && named === undefined) {
    return;
  }
  throw forbidden('the whole server');
}

/** The control API's door: who calls, and whether a control token reaches what it asks for. */
export function guard(rt: Runtime): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const path = c.req.path.slice('/__admin'.length);
    // The document describes the API and holds no data: clients are generated from it.
    if (path === '/openapi.json') {
      return next();
    }
    const who = principalOf(rt, c.req.header('Authorization'));
    if (who.kind === 'workspace') {
      // Its own workspace loaded first: the check reads what it holds.
      return withWorkspace(rt.store, who.id, () => {
        check(rt, c.req.method, path, who.id);
        c.set('adminScope', who.id);
        return next();
      });
    }
    return next();
  };
}

/**
 * The workspace a list reads: the one the caller names, or a control token's own when it names
 * none; a control token naming another is 403.
 */
export function scopedTo(c: Context<AppEnv>, named: string | undefined): string | undefined {
  const scope = c.get('adminScope');
  if (scope === undefined) {
    return named;
  }
  if (named !== undefined && named.toLowerCase() !== scope) {
    throw forbidden("another workspace's list");
  }
  return scope;
}
