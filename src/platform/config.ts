import type { CorsOrigins } from './http/cors';

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
  /**
   * The control API's and the inspector's credential (`--admin-token`); null: they answer anyone
   * who reaches the port, as on 127.0.0.1 by default (decisions.md, Control API access).
   */
  adminToken: string | null;
  /** Where operator-facing lines (faults, warnings) go. */
  log: (line: string) => void;
  /**
   * Subscriptions whose deliveries stay in the log as they are, never sent: a served support
   * bundle's, whose targets are the customer's receivers (decisions.md, Support bundles).
   */
  heldWebhooks?: ReadonlySet<string>;
}
