import { randomBytes } from 'node:crypto';
import { deriveDeliveries } from './deliveries/outbox';
import { TIMEOUT_MS } from './deliveries/policy';
import { DeliveryWorker } from './deliveries/worker';
import { Clock, Scheduler } from './platform/clock';
import type { Config } from './platform/config';
import { Faults } from './platform/faults';
import { FileStorage, filesDirOf } from './platform/files/storage';
import { Idempotency } from './platform/idempotency';
import { Cursors } from './platform/paging';
import { RateLimiter } from './platform/rate-limit';
import { DEFAULT_MAX_BYTES, RequestLog } from './platform/request-log';
import type { Runtime, RuntimeBase } from './platform/runtime';
import { watchDueWork } from './resources/due';
import { watchDeletions } from './resources/recoverable';
import type { Rec, Store } from './store';

/** What a data file knows about itself, beside its records. */
export type StoreMeta = Rec & {
  id: 'store';
  /** Seals cursors, so cursors stay valid across restarts of the same data file. */
  secret: string;
  clock_offset_ms: number;
  /** How `svc seed` made the file: the banner re-derives the demo keys from it. */
  seeded: { seed: number; profile: string } | null;
};

declare module './store/collections' {
  interface GlobalCollections {
    meta: StoreMeta;
  }
}

export const defaultConfig = (overrides: Partial<Config> = {}): Config => ({
  rateLimit: 120,
  allowLocalTargets: false,
  publicUrl: 'http://localhost',
  appUrlFromRequest: true,
  webhookCoalesceMs: 1000,
  webhookTimeoutMs: TIMEOUT_MS,
  fileFetchTimeoutMs: 10_000,
  cors: '*',
  requestLogMaxBytes: DEFAULT_MAX_BYTES,
  log: (line) => process.stderr.write(`${line}\n`),
  ...overrides,
});

export function storeMeta(store: Store): StoreMeta {
  const existing = store.global.get('meta', 'store');
  if (existing) {
    return existing;
  }
  return store.transaction((tx) =>
    tx.global.put('meta', {
      id: 'store',
      secret: randomBytes(32).toString('hex'),
      clock_offset_ms: 0,
      seeded: null,
    }),
  );
}

const REQUEST_LOG = '.requests.jsonl';

/**
 * Builds the runtime of one server over `store`; `requestLogFile` keeps the log on disk, and
 * `filesDir` uploaded files' bytes. Both live beside the data file: without `filesDir`, the bytes
 * go beside the one the request log names, else (a store in memory) in a temp directory.
 */
export function createRuntime(
  store: Store,
  config: Config,
  requestLogFile?: string,
  filesDir: string | undefined = requestLogFile?.endsWith(REQUEST_LOG)
    ? filesDirOf(requestLogFile.slice(0, -REQUEST_LOG.length))
    : undefined,
): Runtime {
  const meta = storeMeta(store);
  const clock = new Clock(meta.clock_offset_ms);
  const scheduler = new Scheduler(clock, (err, key) =>
    config.log(`svc: scheduled work ${key} failed: ${String((err as Error)?.stack ?? err)}`),
  );
  const base: RuntimeBase = {
    store,
    clock,
    scheduler,
    config,
    limiter: new RateLimiter(clock),
    cursors: new Cursors(Buffer.from(meta.secret, 'hex')),
    files: new FileStorage(filesDir),
    faults: new Faults(clock),
    requestLog: new RequestLog(
      clock,
      scheduler,
      requestLogFile,
      config.log,
      config.requestLogMaxBytes,
    ),
  };
  const rt: Runtime = {
    ...base,
    idempotency: new Idempotency(base),
    deliveries: new DeliveryWorker(base),
  };
  rt.idempotency.start();
  rt.files.watch(store);
  watchDeletions(rt);
  watchDueWork(rt);
  deriveDeliveries(rt);
  rt.deliveries.start();
  return rt;
}

/** Moves the clock (running what falls due on the way) and remembers where it stands. */
export async function advanceClock(rt: Runtime, targetMs: number): Promise<void> {
  // Work due in a workspace not parsed yet (a purge, a retry) must be known before time moves.
  rt.store.parseAll();
  await rt.scheduler.advanceTo(targetMs);
  const offset = rt.clock.offsetMs;
  rt.store.transaction((tx) => {
    const meta = tx.global.get('meta', 'store');
    if (meta) {
      tx.global.put('meta', { ...meta, clock_offset_ms: offset });
    }
  });
  await rt.store.sync();
}
