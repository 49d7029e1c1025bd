import type { Context } from 'hono';
import type { Store } from '../../store';
import type { AppEnv } from '../app-env';
import { ApiError } from '../errors';
import { unavailable } from './durability';

// The doors of a store on PostgreSQL that loads workspaces when first used (store/residency.ts):
// a request's workspaces are loaded before its handler reads them synchronously, and kept in
// memory until it has answered. /v1 names its workspace by its credential; the control API and the
// web app name records by their ids alone, in the path or the query (or a form's fields).

/**
 * Runs `next` with the workspaces `holding` loads kept in memory for its whole run. A load the
 * database did not answer is the store's own 500, with Retry-After, as a lost commit is.
 */
export async function whileHeld<T>(
  holding: Promise<() => void>,
  next: () => Promise<T>,
): Promise<T> {
  let release: () => void;
  try {
    release = await holding;
  } catch (err) {
    throw err instanceof ApiError ? err : unavailable();
  }
  try {
    return await next();
  } finally {
    release();
  }
}

/**
 * The homeowner's pages a GET of which writes: the invoice's and the estimate's, which record
 * that the homeowner saw them (spec: an invoice or estimate moves to viewed).
 */
const VIEWED_PAGES = ['/pay/', '/view/'];

/** Whether a request may write: with several nodes, it takes the leases of what it names. */
export const writes = (c: Context<AppEnv>): boolean =>
  (c.req.method !== 'GET' && c.req.method !== 'HEAD' && c.req.method !== 'OPTIONS') ||
  VIEWED_PAGES.some((page) => c.req.path.startsWith(page));

/** Runs `next` with workspace `id` loaded and kept in memory (a store on PostgreSQL), else at once. */
export function withWorkspace<T>(store: Store, id: string, next: () => Promise<T>): Promise<T> {
  const residency = store.residency;
  return residency === undefined ? next() : whileHeld(residency.holdAll([id]), next);
}

/** What could name a record or a workspace in a request: its path's segments, its query's values. */
export function namesIn(c: Context<AppEnv>): string[] {
  const names = c.req.path.split('/');
  const query = c.req.url.indexOf('?');
  if (query !== -1) {
    for (const value of new URLSearchParams(c.req.url.slice(query + 1)).values()) {
      names.push(value.trim());
    }
  }
  // Ids are matched whatever their case (the record pages take an id in capitals), tokens exactly.
  return names.flatMap((name) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {}
    const lower = decoded.toLowerCase();
    return lower === decoded ? [decoded] : [decoded, lower];
  });
}
