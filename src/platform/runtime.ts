import type { Store, TxScope, WorkspaceCollections } from '../store';
import type { Clock, Clocks, Scheduler } from './clock';
import type { Config } from './config';
import type { Faults } from './faults/registry';
import type { FileStorage } from './files/storage';
import type { Idempotency } from './idempotency';
import type { Cursors } from './paging/cursors';
import type { RateLimiter } from './rate-limit/limiter';
import type { RequestLog } from './request-log';

type Delivery = WorkspaceCollections['deliveries'];

/**
 * What the API, the control API and the web app ask of the delivery worker (src/deliveries),
 * which is built above the platform and handed in when the runtime is put together.
 */
export interface Deliveries {
  start(): void;
  stop(): void;
  /** How many sends are out now. */
  readonly sending: number;
  /** Whether workspace `wsId` has a resend or test send open, sent by its caller, not scheduled. */
  unsentIn(wsId: string): boolean;
  /** Sends an open delivery now; undefined when there is no such delivery. */
  attempt(wsId: string, id: string): Promise<Delivery | undefined>;
  /** Creates a delivery and sends it once, now: a resend or a test send from the log. */
  sendOnce(
    wsId: string,
    create: (ws: TxScope<WorkspaceCollections>, now: string) => Delivery,
  ): Promise<Delivery>;
}

/**
 * One server (or one test app): its long-lived pieces, which every layer above the store is
 * built with. src/runtime.ts puts one together.
 */
export interface Runtime {
  store: Store;
  /** The server's clock; a workspace's records read theirs, `clocks.of(id)`. */
  clock: Clock;
  clocks: Clocks;
  scheduler: Scheduler;
  config: Config;
  limiter: RateLimiter;
  cursors: Cursors;
  /** Where uploaded files' bytes are kept: beside the data file. */
  files: FileStorage;
  /** Faults injected through /__admin/faults (decisions.md, Faults). */
  faults: Faults;
  requestLog: RequestLog;
  idempotency: Idempotency;
  deliveries: Deliveries;
}

/** The pieces the delivery worker and the idempotency records are themselves built on. */
export type RuntimeBase = Omit<Runtime, 'deliveries' | 'idempotency'>;
