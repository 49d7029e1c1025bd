import type { Store, WorkspaceCollections, WorkspaceStore } from '../store';
import type { Name } from '../store/collections';
import { appCredential, type Credential } from './auth/credentials';
import type { Workspace } from './auth/records';
import type { Clock, Scheduler } from './clock';
import { ApiError } from './errors';
import type { Faults } from './faults/registry';
import type { FileStorage } from './files/storage';
import type { CorsOrigins } from './http/cors';
import type { Cursors } from './paging/cursors';
import type { RateLimiter } from './rate-limit/limiter';

/** The settings of one server: the flags of `svc serve`, and what tests shorten. */
export interface Config {
  /** Requests a minute per credential; null switches limiting off. */
  rateLimit: number | null;
  allowLocalTargets: boolean;
  /** `{app_url}`: the server's own address; records' `url`s point there, in GET and deliveries. */
  publicUrl: string;
  /**
   * Whether GET builds records' `url`s from the address the caller used instead: an in-process
   * app, or a server on a wildcard host, has no one address a browser could open.
   */
  appUrlFromRequest: boolean;
  /** How long edits to one record gather before they go out as one `*.updated` delivery. */
  webhookCoalesceMs: number;
  /** How long a receiver has to answer (spec: 10 seconds; tests shorten it). */
  webhookTimeoutMs: number;
  /**
   * How long an upload from a URL waits on its origin, for an answer or for the next bytes
   * (decisions.md, Files: 10 seconds; tests shorten it).
   */
  fileFetchTimeoutMs: number;
  /** Which origins a browser app may call /v1 from (`--cors`); null answers no CORS at all. */
  cors: CorsOrigins | null;
  /**
   * The request log's byte budget, both files together (`--request-log-max-bytes`; decisions.md,
   * Request log); null: the lines cap alone.
   */
  requestLogMaxBytes: number | null;
  /** Where operator-facing lines (faults, warnings) go. */
  log: (line: string) => void;
  /**
   * Subscriptions whose deliveries stay in the log as they are, never sent: a served support
   * bundle's, whose targets are the customer's receivers (decisions.md, Support bundles).
   */
  heldWebhooks?: ReadonlySet<string>;
}

/** The platform's long-lived pieces of one server: what the layers above it are built on. */
export interface Platform {
  store: Store;
  clock: Clock;
  scheduler: Scheduler;
  config: Config;
  limiter: RateLimiter;
  cursors: Cursors;
  /** Where uploaded files' bytes are kept: beside the data file. */
  files: FileStorage;
  /** Faults injected through /__admin/faults (decisions.md, Faults). */
  faults: Faults;
}

/** What a verb runs with: the caller's workspace (its store, its record), the clock, the caller. */
export interface ServiceContext {
  ws: WorkspaceStore;
  workspace: Workspace;
  clock: Clock;
  credential: Credential;
  /** `{app_url}`: the server root; records' `url`s open pages there. */
  appUrl: string;
}

/** A request's variables in Hono. */
export type AppEnv = {
  Variables: {
    requestId: string;
    credential: Credential | undefined;
    /** The credential a call was made with, even one refused as revoked (the request log's). */
    presented: Credential | undefined;
    ctx: ServiceContext;
    /**
     * `{app_url}` when it is svc's own address (decisions.md, Record URLs); unset when it is the
     * origin the caller used, read from the request when needed.
     */
    appUrl: string | undefined;
    /** The request has been counted by the rate limiter, and its headers stamped. */
    rateCounted: boolean;
    /** The id of the injected fault this call got, for the request log. */
    fault: string | undefined;
    /** The fault dropped the connection: nothing was answered. */
    dropped: boolean | undefined;
  };
};

/**
 * decisions.md, Record URLs: `{app_url}` is the address svc listens on, or (on a wildcard host, or
 * in-process) the origin the caller used. The API and the control API link records alike.
 */
export const appUrlFor = (
  config: Pick<Config, 'appUrlFromRequest' | 'publicUrl'>,
  requestUrl: string,
) => (config.appUrlFromRequest ? new URL(requestUrl).origin : config.publicUrl);

/** `{app_url}` for an answer made outside a workspace's context (an error's `doc_url`). */
export const requestAppUrl = (c: {
  get(key: 'appUrl'): string | undefined;
  req: { url: string };
}): string => c.get('appUrl') ?? new URL(c.req.url).origin;

/**
 * The workspace holding a record, found by its id alone: the control API names records without
 * their workspace (ids are unique across workspaces).
 */
export function holderOf<K extends Name<WorkspaceCollections>>(
  store: Store,
  coll: K,
  id: string,
): { workspaceId: string; record: WorkspaceCollections[K] } | undefined {
  for (const ws of store.global.values('workspaces')) {
    const record = store.workspace(ws.id).get(coll, id);
    if (record !== undefined) {
      return { workspaceId: ws.id, record: record as WorkspaceCollections[K] };
    }
  }
  return undefined;
}

/** What an app-side action (and an event) runs as: the workspace's owner, in the web app. */
export function appContext(
  deps: Pick<Platform, 'store' | 'clock'>,
  workspaceId: string,
  appUrl: string,
): ServiceContext {
  const workspace = deps.store.global.get('workspaces', workspaceId);
  if (!workspace) {
    throw new ApiError('not_found', 'no such workspace');
  }
  return {
    ws: deps.store.workspace(workspaceId),
    workspace,
    clock: deps.clock,
    credential: appCredential(workspaceId),
    appUrl,
  };
}
