import type { Mismatch } from './matchers';
import type { Inbox } from './receiver';
import type { Keys } from './target';

// What one scenario (or one `svc trigger`) runs with: where, as whom, what it has captured, and
// the inbox its webhook steps subscribe.

export interface Session {
  base: string;
  origin: string;
  control: boolean;
  keys: Keys;
  vars: Map<string, unknown>;
  inbox: Inbox | undefined;
  /** The scenario file's folder: a multipart `file.path` is read relative to it. */
  dir: string;
  /** Subscriptions the webhook steps made, to delete when the workspace is shared. */
  webhooks: string[];
  /** Ctrl-C: aborts what the step waits on (a request, a delivery, a 429's wait). */
  signal?: AbortSignal | undefined;
}

/** One step as it ran: what `svc trigger` prints, and what a failure names. */
export interface StepRecord {
  number: number;
  label: string;
  kind: string;
  method: string | undefined;
  /** The path as sent, captures substituted. */
  path: string | undefined;
  status: number | undefined;
  body: unknown;
}

/** A step that did not hold: the scenario fails with this message. */
export class StepFailure extends Error {
  constructor(
    readonly step: number,
    readonly label: string,
    readonly detail: string,
    readonly mismatch?: Mismatch,
  ) {
    super(`step ${step} (${label}): ${detail}`);
  }
}

/** A scenario that cannot run against this server: skipped whole, with the reason. */
export class SkipScenario extends Error {}

export function describeMismatch(m: Mismatch): string {
  return `${m.path}: expected ${m.expected}, got ${m.got}`;
}

/**
 * Where the scenario's clock is: its workspace's own (a clock step moves that workspace's time
 * alone, decisions.md, Clock), or the server's when the workspace is not known.
 */
export const clockPath = (session: { keys: { workspaceId: string | undefined } }): string =>
  session.keys.workspaceId === undefined
    ? '/__admin/clock'
    : `/__admin/workspaces/${session.keys.workspaceId}/clock`;
