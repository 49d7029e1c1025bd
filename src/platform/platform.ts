import type { Store } from '../store';
import type { Clock, Scheduler } from './clock';
import type { Config } from './config';
import type { Faults } from './faults/registry';
import type { FileStorage } from './files/storage';
import type { Cursors } from './paging/cursors';
import type { RateLimiter } from './rate-limit/limiter';

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
