import type { Credential } from './platform/auth/credentials';
import type { Workspace } from './platform/auth/records';
import type { Clock, Scheduler } from './platform/clock';
import type { Cursors } from './platform/paging/cursors';
import type { RateLimiter } from './platform/rate-limit/limiter';
import type { Store, WorkspaceStore } from './store';

/** What a verb needs: the caller's workspace (its store, its record), the clock, the caller. */
export interface ServiceContext {
  ws: WorkspaceStore;
  workspace: Workspace;
  clock: Clock;
  credential: Credential;
  /** `{app_url}`: the server root as the caller reached it; records' `url`s open pages there. */
  appUrl: string;
}

export interface Config {
  /** Requests a minute per credential; null switches limiting off. */
  rateLimit: number | null;
  allowLocalTargets: boolean;
  /** Where operator-facing lines (faults, warnings) go. */
  log: (line: string) => void;
}

/** The long-lived pieces one server (or one test app) is made of. */
export interface Runtime {
  store: Store;
  clock: Clock;
  scheduler: Scheduler;
  config: Config;
  limiter: RateLimiter;
  cursors: Cursors;
}

export type AppEnv = {
  Variables: {
    requestId: string;
    credential: Credential | undefined;
    ctx: ServiceContext;
    /** Set when the Idempotency-Key middleware answered with a stored response. */
    replayed: boolean | undefined;
  };
};
