import type { Runtime } from './platform/runtime';
import { NOTHING_DUE } from './store/residency';
import type { Scope } from './store/types';

// The runtime's side of a store on PostgreSQL that loads workspaces when first used (store/
// residency.ts, architecture.md): every scheduled task loads its workspace and keeps it while it
// runs; a workspace running work is not let go; each commit tells PostgreSQL when the workspaces it
// wrote have work due next, so that a start (which loads none) wakes each one then; and a
// workspace whose due is not known (a seed, a copy wrote it) is loaded once after start to learn it.

const wakeKey = (scope: Scope) => `wake:${scope}`;
/** How long a task whose workspace could not be loaded waits to try again. */
const RETRY_MS = 1000;

export function followResidency(rt: Runtime): void {
  const { store, scheduler } = rt;
  const residency = store.residency;
  if (residency === undefined) {
    return;
  }
  // With several nodes, a task writes its workspace under the lease (store/pg/cluster.ts), on its
  // records as the last node to write them left them.
  const hold = (group: Scope) =>
    residency.coordinate === undefined
      ? store.use(group)
      : residency.holdAll([group], { lease: [group] });
  scheduler.around(async ({ key, group, run }) => {
    const release = await hold(group).catch((err: unknown) => {
      // The database did not answer: the task goes again a second later (unless a load of its
      // workspace schedules it anew first), whatever it was: a retry, a workspace's expiry.
      scheduler.schedule(key, rt.clocks.of(group).nowMs() + RETRY_MS, run, group);
      throw err;
    });
    try {
      return await run();
    } finally {
      release();
    }
  });
  // Its next task's time; now while a resend or test send is open (a stop cuts it short: it goes
  // again after the start, as on the data file).
  const dueOf = (scope: Scope): number | null => {
    const next = scheduler.earliest(scope);
    const unsent = rt.deliveries.unsentIn(scope) ? rt.clocks.of(scope).nowMs() : undefined;
    return next === undefined ? (unsent ?? null) : Math.min(next, unsent ?? next);
  };
  store.tracksDue(dueOf);
  residency.keepWhile((scope) => scheduler.busy(scope));
  residency.onReset((dues) => {
    const unknown: Scope[] = [];
    for (const [scope, due] of dues) {
      if (due === null) {
        unknown.push(scope);
      } else if (due !== NOTHING_DUE) {
        // Its work is scheduled once it is loaded: loading it, when due, is all the wake does.
        scheduler.schedule(wakeKey(scope), due, () => store.load(scope), scope);
      }
    }
    residency.surveying = survey(rt, unknown, dueOf);
  });
  // Loaded, its work is scheduled as it is: the wake has done its part.
  store.onLoaded((scope) => scheduler.cancel(wakeKey(scope)));
  takeOver(rt);
}

/** How often a node of several looks for work due in workspaces it does not hold. */
const TAKE_OVER_EVERY_MS = 2000;
/** How long past its time work due elsewhere waits for the node that wrote it before another takes it. */
const TAKE_OVER_AFTER_MS = 3000;

/**
 * Several nodes (architecture.md, Several nodes): the node that wrote a workspace's work does it,
 * under the workspace's lease; every node that holds the workspace has it scheduled too and, the
 * lease taken, finds it done. A workspace no node holds (its node lost, say) is woken a few
 * seconds past its work's time by whichever node looks first: loaded, its work is scheduled and
 * runs here.
 */
function takeOver(rt: Runtime): void {
  const { store, scheduler } = rt;
  const cluster = store.cluster;
  if (cluster === undefined) {
    return;
  }
  const look = async () => {
    // Workspaces held here: what another node wrote since is taken in (and its work scheduled
    // here, in case that node is lost before doing it).
    const residency = store.residency;
    if (residency !== undefined) {
      (await residency.holdAll(residency.inMemory()))();
    }
    for (const [scope, due] of await cluster.dues()) {
      if (store.isAway(scope)) {
        scheduler.schedule(
          wakeKey(scope),
          due + TAKE_OVER_AFTER_MS,
          () => store.load(scope),
          scope,
        );
      }
    }
  };
  const timer = setInterval(() => {
    if (store.closed) {
      clearInterval(timer);
    } else {
      void look().catch(() => undefined);
    }
  }, TAKE_OVER_EVERY_MS).unref();
}

/** Loads each workspace in turn, and keeps what it found due next, letting them go as it goes. */
async function survey(
  rt: Runtime,
  scopes: readonly Scope[],
  dueOf: (scope: Scope) => number | null,
): Promise<void> {
  const residency = rt.store.residency;
  for (const scope of scopes) {
    try {
      await rt.store.load(scope);
      await residency?.learnDue(scope, dueOf(scope));
      residency?.trim();
    } catch {
      // Deleted meanwhile, or the database away: the next start looks again.
    }
  }
}

/**
 * Several nodes: before the server's clock moves `byMs`, every workspace with work due by then
 * (`scopes.due`, on its own clock) is read as the last node left it, so its work, wherever it
 * was written, runs on the way, in time order, before the move answers.
 */
export async function catchUpDue(rt: Runtime, byMs: number): Promise<void> {
  const { store } = rt;
  const cluster = store.cluster;
  const residency = store.residency;
  if (cluster === undefined || residency === undefined) {
    return;
  }
  const due: Scope[] = [];
  for (const [scope, at] of await cluster.dues()) {
    if (at <= rt.clocks.of(scope).nowMs() + byMs) {
      due.push(scope);
    }
  }
  (await residency.holdAll(due))();
}
