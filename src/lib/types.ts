// The library's public types: what `startSvc` takes and answers (DESIGN.md, "Shared servers,
// stores and tests"). Types alone, imported from nowhere: the build ships this file as the
// package's declarations (dist/lib.d.ts), and src/lib/conformance.ts checks each against the
// control API's own schemas, so neither drifts from the other.

/** What `startSvc` starts. Every option is one of `svc serve`'s flags, or the workspace it makes. */
export interface StartOptions {
  /**
   * The JSON data file (`--data`), or a support bundle. Default: a new file in a temporary
   * folder, removed by `stop()`. A file given is kept, and its workspaces are there beside the
   * one made for this start.
   */
  data?: string;
  /**
   * A PostgreSQL store (`--store`): `postgres://user:password@host:port/database`. The records
   * live there, in the schema `storeSchema`, made on first use (and kept by `stop()`); the
   * request log and uploads stay in the temporary folder (or beside `data`).
   */
  store?: string;
  /** The store's schema (`--store-schema`); default `svc`. One svc serves a schema at a time. */
  storeSchema?: string;
  /** The profile of the workspace made for this start: `empty` (default), `small` or `demo`. */
  profile?: WorkspaceProfile;
  /** The seed of that workspace's fake data (same seed, same records). Default: a random one. */
  seed?: number;
  /** The port (`--port`); default 0, a free one. */
  port?: number;
  /** Requests a minute per key (`--rate-limit`), or `'off'`. Default 120, as the real service. */
  rateLimit?: number | 'off';
  /** Webhook targets may be http: and loopback or private addresses (`--allow-local-targets`). */
  allowLocalTargets?: boolean;
  /**
   * Run svc inside this process instead of as a child process (default false). Faster to start,
   * and it shares this process's event loop; a child process is what `npx svc serve` runs.
   */
  inProcess?: boolean;
}

export type WorkspaceProfile = 'empty' | 'small' | 'demo';

/** What `newWorkspace` makes. */
export interface WorkspaceOptions {
  profile?: WorkspaceProfile;
  seed?: number;
  name?: string;
  /** The workspace deletes itself when its clock passes this many seconds from now. */
  expiresInSeconds?: number;
}

/** A clock of svc's: the server's (`svc.clock`) or one workspace's (`workspace.clock`). */
export interface SvcClock {
  /** What time it is on this clock (ISO 8601). */
  now(): Promise<string>;
  /** Moves it forward, running the work that falls due on the way; answers the new now. */
  advance(seconds: number): Promise<string>;
  /** Moves it forward to `instant`; answers the new now. */
  set(instant: string | Date): Promise<string>;
}

/** A workspace, with its keys and its control token (each shown once by svc, kept here). */
export interface SvcWorkspace {
  id: string;
  name: string;
  /** `Authorization: Bearer <key>` on `/v1`. */
  keys: { write: string; read: string };
  /** The keys' ids, as `/__admin/requests` and faults name them. */
  keyIds: { write: string; read: string };
  /** `svc_ctl_…`: the control API for this workspace alone. */
  controlToken: string;
  /** This workspace's own clock: moving it moves no other workspace's. */
  clock: SvcClock;
  /** Deletes the workspace and everything of it, for good. */
  delete(): Promise<void>;
}

/** The spec's error codes (the envelope's `code`). */
export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'plan_required'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'rate_limited'
  | 'server_error';

/** `POST /__admin/faults`'s body. */
export interface FaultInput {
  match: {
    method?: string;
    path?: string;
    workspace_id?: string;
    key_id?: string;
    target?: string;
  };
  action: {
    status?: number;
    code?: ErrorCode;
    delay_ms?: number;
    /** The connection reset, no answer. */
    drop?: true;
  };
  times?: number;
  probability?: number;
  seed?: number;
}

/** A fault as svc keeps it. */
export interface Fault {
  id: string;
  object: 'fault';
  match: FaultInput['match'];
  action: FaultInput['action'];
  times: number | null;
  remaining: number | null;
  probability: number;
  seed: number;
  fired: number;
  state: 'active' | 'spent';
  created_at: string;
}

/** `/__admin/requests`' filters. */
export interface RequestFilters {
  workspace_id?: string;
  key_id?: string;
  method?: string;
  path?: string;
  status?: number | string;
  fault?: string;
  since?: string;
  until?: string;
}

/** A call in the request log (`GET /__admin/requests`). */
export interface LoggedRequest {
  id: string;
  at: string;
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
  duration_ms: number;
  key_id: string;
  credential_kind: string;
  workspace_id: string;
  request_id: string;
  request_headers: Record<string, string>;
  request_body: string | null;
  request_body_truncated: boolean;
  response_body: string | null;
  response_body_truncated: boolean;
  fault?: string;
  /** The node that answered, where several svc serve one PostgreSQL store. */
  node?: string;
}

/** One attempt of a delivery. */
export interface DeliveryAttempt {
  n: number;
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_snippet: string | null;
  fault?: string;
  signature?: string;
}

/** A delivery in a subscription's log (`GET /__admin/webhooks/{id}/deliveries`). */
export interface Delivery {
  id: string;
  object: 'delivery';
  webhook_id: string;
  event_id: string;
  event: string;
  kind: 'event' | 'resend' | 'test';
  resend_of: string | null;
  state: 'pending' | 'retrying' | 'succeeded' | 'failed' | 'cancelled';
  next_attempt_at: string | null;
  created_at: string;
  attempts: DeliveryAttempt[];
}

/** `POST /__admin/oauth/authorize`'s body: the consent page's answer, without a browser. */
export interface AuthorizeInput {
  client_id: string;
  redirect_uri: string;
  state: string;
  scope?: 'read' | 'write';
  workspace_id: string;
  decision: 'allow' | 'deny';
}

/** A running svc. */
export interface Svc {
  /** The API's base URL, `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** The web app's and the control API's origin, `http://127.0.0.1:<port>`. */
  appUrl: string;
  /** The process svc runs in (this one, when `inProcess`). */
  pid: number;
  /** The workspace made for this start. */
  workspace: SvcWorkspace;
  newWorkspace(options?: WorkspaceOptions): Promise<SvcWorkspace>;
  /** The server's clock: moving it moves every workspace's. */
  clock: SvcClock;
  faults: {
    add(fault: FaultInput): Promise<Fault>;
    /** Deletes every fault; answers how many there were. */
    clear(): Promise<number>;
  };
  oauth: {
    /** Where the consent page would send the browser: `code` and `state`, or `access_denied`. */
    authorize(input: AuthorizeInput): Promise<{ location: string }>;
  };
  /** The request log, newest first, every page of it. */
  requests(filters?: RequestFilters): Promise<LoggedRequest[]>;
  /** A subscription's delivery log, newest first, every page of it. */
  deliveries(webhookId: string): Promise<Delivery[]>;
  /** Stops svc: every write on disk first. Safe to call twice. */
  stop(): Promise<void>;
}
