import { watchExpiry } from './admin/workspaces-service';
import { deriveDeliveries } from './deliveries/outbox';
import { TIMEOUT_MS } from './deliveries/policy';
import { DeliveryWorker } from './deliveries/worker';
import type { Workspace } from './platform/auth';
import { Clock, Clocks, Scheduler } from './platform/clock';
import type { Config } from './platform/config';
import { Faults } from './platform/faults';
import { FileStorage, filesDirOf } from './platform/files/storage';
import { Idempotency } from './platform/idempotency';
import { Cursors } from './platform/paging';
import { RateLimiter } from './platform/rate-limit';
import { DEFAULT_MAX_BYTES, RequestLog } from './platform/request-log';
import { shareRequests } from './platform/request-log/shared';
import type { Runtime, RuntimeBase } from './platform/runtime';
import { type StoreMeta, storeMeta } from './platform/store-meta';
import { followResidency } from './residency';
import { watchDueWork } from './resources/due';
import { watchDeletions } from './resources/recoverable';
import { GLOBAL, type Store } from './store';

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
  adminToken: null,
  log: (line) => process.stderr.write(`${line}\n`),
  ...overrides,
});

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
  const clocks = new Clocks(
    clock,
    (wsId) => store.global.get('workspaces', wsId)?.clock_offset_ms ?? 0,
  );
  const scheduler = new Scheduler(
    clock,
    (err, key) =>
      config.log(`svc: scheduled work ${key} failed: ${String((err as Error)?.stack ?? err)}`),
    (wsId) => clocks.offset(wsId),
  );
  followClocks(store, clocks, scheduler);
  const base: RuntimeBase = {
    store,
    clock,
    clocks,
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
  rt.requestLog.followClocks((wsId) => clocks.offset(wsId));
  rt.requestLog.pulled = shareRequests(store, rt.requestLog);
  rt.files.shared = store.cluster?.blobs;
  if (store.cluster) {
    rt.faults.share(store.cluster.faults, store.cluster.versions);
  }
  rt.idempotency.start();
  rt.files.watch(store);
  forgetDeleted(rt);
  watchExpiry(rt);
  watchDeletions(rt);
  watchDueWork(rt);
  deriveDeliveries(rt);
  rt.deliveries.start();
  followResidency(rt);
  return rt;
}

/**
 * Stops what `rt` runs and lets its store go: scheduled work and sends in flight are cut short,
 * not logged (their deliveries go again after a restart); the request log is written out.
 */
export async function closeRuntime(rt: Runtime): Promise<void> {
  rt.scheduler.stop();
  rt.deliveries.stop();
  await rt.scheduler.idle();
  await rt.requestLog.close();
  await rt.store.close();
}

/**
 * A workspace's clock follows its record: a restore from a snapshot brings its offset back (a
 * store import, another node's move), and its scheduled work then falls due at other server
 * instants.
 */
function followClocks(store: Store, clocks: Clocks, scheduler: Scheduler): void {
  store.onApplied((changes) => {
    for (const change of changes) {
      if (change.scope === GLOBAL && change.coll === 'meta' && store.cluster !== undefined) {
        // Another node moved the server's clock (several nodes): this one's moves with it, and
        // what fell due on the way runs (or, run there, is found done under its lease).
        const offset = (change.after as StoreMeta | undefined)?.clock_offset_ms;
        if (offset !== undefined && offset > clocks.server.offsetMs) {
          clocks.server.setOffset(offset);
          scheduler.runDue();
        }
        continue;
      }
      if (change.scope !== GLOBAL || change.coll !== 'workspaces') {
        continue;
      }
      const after = change.after as Workspace | undefined;
      if (after === undefined) {
        clocks.forget(change.id);
        continue;
      }
      // Only a change of the offset itself moves the clock: a record written from an older copy
      // (a PATCH while its clock is moving) must not take it back.
      const offset = after.clock_offset_ms ?? 0;
      if (offset !== ((change.before as Workspace | undefined)?.clock_offset_ms ?? 0)) {
        clocks.set(change.id, offset);
        scheduler.rekey(change.id);
      }
    }
  });
}

/**
 * What svc keeps of a workspace beside its records (its scheduled work, its calls in the request
 * log, its files' bytes) goes when the workspace is deleted; a start leaves out what a stop in
 * between left of one (decisions.md, Workspaces).
 */
function forgetDeleted(rt: Runtime): void {
  const exists = (wsId: string) => rt.store.global.get('workspaces', wsId) !== undefined;
  if (rt.store.durable) {
    // A log beside a store in memory outlives it (tests restart over one file): nothing to match.
    rt.requestLog.knowWorkspaces(exists);
  }
  void rt.files.sweep(exists).catch(() => undefined);
  rt.store.onDropped((wsId) => {
    rt.scheduler.cancelGroup(wsId);
    void rt.store.cluster?.kept.forget(wsId).catch(() => undefined);
    rt.requestLog.forget(wsId);
    // The bytes go once the deletion is on disk: a crash before must not leave records without them.
    void rt.store
      .sync()
      .then(() => rt.files.removeWorkspace(wsId))
      .catch(() => undefined);
  });
}
