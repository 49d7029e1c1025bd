import { FORGOTTEN } from './entries';
import type { Filters } from './lines';

/** What /__admin/requests filters the log by. */
export interface RequestFilter {
  workspace_id?: string | undefined;
  key_id?: string | undefined;
  method?: string | undefined;
  /** A prefix of the path: `/v1/jobs` matches `/v1/jobs/<id>` too. */
  path?: string | undefined;
  /** An exact status (`404`) or a class (`4xx`). */
  status?: string | undefined;
  /** Calls made at or after this ISO instant. */
  since?: string | undefined;
  /** Calls made before this ISO instant. */
  until?: string | undefined;
  /** A fault's id: the calls it hit; `true`: every faulted call; `false`: every other. */
  fault?: string | undefined;
}

/** Whether an entry (its filter fields, at `atMs`) is one `filter` asks for. */
export function matches(
  entry: Omit<Filters, 'id' | 'at'>,
  atMs: number,
  filter: RequestFilter,
): boolean {
  if (entry.workspace_id === FORGOTTEN) {
    return false;
  }
  if (filter.workspace_id !== undefined && entry.workspace_id !== filter.workspace_id) {
    return false;
  }
  if (filter.key_id !== undefined && entry.key_id !== filter.key_id) {
    return false;
  }
  if (filter.method !== undefined && entry.method !== filter.method.toUpperCase()) {
    return false;
  }
  if (filter.path !== undefined && !pathMatches(entry.path, filter.path)) {
    return false;
  }
  if (filter.since !== undefined && atMs < Date.parse(filter.since)) {
    return false;
  }
  if (filter.until !== undefined && atMs >= Date.parse(filter.until)) {
    return false;
  }
  if (filter.fault !== undefined && !faultMatches(entry.fault, filter.fault)) {
    return false;
  }
  if (filter.status !== undefined) {
    const cls = /^([1-5])xx$/i.exec(filter.status);
    const status = String(entry.status);
    if (cls ? status[0] !== cls[1] : status !== filter.status) {
      return false;
    }
  }
  return true;
}

// decisions.md: a path prefix, absolute (`/v1/jobs`) or relative to `{base_url}` (`/jobs`).
const pathMatches = (path: string, prefix: string): boolean =>
  path.startsWith(prefix) || (!prefix.startsWith('/v1') && path.startsWith(`/v1${prefix}`));

const faultMatches = (fault: string | undefined, wanted: string): boolean =>
  wanted === 'true'
    ? fault !== undefined
    : wanted === 'false'
      ? fault === undefined
      : fault === wanted;
