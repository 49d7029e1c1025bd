import type { Context } from 'hono';
import { requestFilterFrom } from '../../admin/requests';
import type { AppEnv } from '../../platform/app-env';
import { ApiError } from '../../platform/errors';
import type { LoggedRequest, RequestFilter } from '../../platform/request-log';
import type { Runtime } from '../../platform/runtime';

// What the request list, its live stream and a call's page share: a call as a row, and the
// filters of /__admin/requests read from the page's address.

/** The filters of /__admin/requests, by the names it takes. */
export const FILTERS = [
  'workspace_id',
  'key_id',
  'method',
  'path',
  'status',
  'fault',
  'since',
  'until',
] as const;

/** One row of the log: what the list shows of a call, and what the stream sends the script. */
export interface Row {
  id: string;
  at: string;
  method: string;
  target: string;
  status: number;
  duration_ms: number;
  key_id: string;
  key: string;
  workspace_id: string;
  workspace: string;
  fault: string | null;
}

/** What a row is made of: a logged call, or a new entry the stream is told of. */
export type Summary = Pick<
  LoggedRequest,
  'at' | 'method' | 'path' | 'query' | 'status' | 'duration_ms' | 'key_id' | 'workspace_id'
> & { fault?: string | undefined };

export function rowOf(rt: Runtime, id: string, e: Summary): Row {
  const { global } = rt.store;
  const query = new URLSearchParams(e.query).toString();
  const key = global.get('api_keys', e.key_id);
  const connection = key ? undefined : global.get('oauth_connections', e.key_id);
  const app = connection && global.get('oauth_apps', connection.client_id);
  return {
    id,
    at: e.at,
    method: e.method,
    target: query === '' ? e.path : `${e.path}?${query}`,
    status: e.status,
    duration_ms: e.duration_ms,
    key_id: e.key_id,
    key: key ? `${key.name} (${key.prefix}…)` : app ? `app ${app.name}` : e.key_id,
    workspace_id: e.workspace_id,
    workspace: global.get('workspaces', e.workspace_id)?.name ?? e.workspace_id,
    fault: e.fault ?? null,
  };
}

/** The page's filters, read and refused as /__admin/requests reads and refuses them. */
export function filterOf(c: Context<AppEnv>): { filter: RequestFilter; problem?: string } {
  const given: Record<string, string> = {};
  for (const name of FILTERS) {
    const value = c.req.query(name)?.trim();
    if (value) {
      given[name] = value;
    }
  }
  // A control-token sign-in reads its own workspace's calls alone (the door refused another).
  const scope = c.get('adminScope');
  if (scope !== undefined) {
    given.workspace_id = scope;
  }
  try {
    return { filter: requestFilterFrom(given) };
  } catch (err) {
    if (err instanceof ApiError) {
      return { filter: given as RequestFilter, problem: err.message };
    }
    throw err;
  }
}

/** The filters (and `extra`) as a query string, '' when there are none. */
export const queryOf = (filter: RequestFilter, extra: Record<string, string> = {}) => {
  const q = new URLSearchParams({ ...(filter as Record<string, string>), ...extra }).toString();
  return q === '' ? '' : `?${q}`;
};
