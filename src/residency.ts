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
  scheduler.around(async (group, run) => {
    const release = await store.use(group).catch((err: unknown) => {
      // The database did not answer: the workspace is loaded again a second later, which
      // schedules this work anew (a load scans for it), and it runs then.
      const at = rt.clocks.of(group).nowMs() + RETRY_MS;
      scheduler.schedule(wakeKey(group), at, () => store.load(group), group);
      throw err;
    });
    try {
      return await run();
    } finally {
      release();
    }
  });
  store.tracksDue((scope) => scheduler.earliest(scope) ?? null);
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
    residency.surveying = survey(rt, unknown);
  });
  // Loaded, its work is scheduled as it is: the wake has done its part.
  store.onLoaded((scope) => scheduler.cancel(wakeKey(scope)));
}

/** Loads each workspace in turn, and keeps what it found due next, letting them go as it goes. */
async function survey(rt: Runtime, scopes: readonly Scope[]): Promise<void> {
  const residency = rt.store.residency;
  for (const scope of scopes) {
    try {
      await rt.store.load(scope);
      await residency?.learnDue(scope, rt.scheduler.earliest(scope) ?? null);
      residency?.trim();
    } catch {
      // Deleted meanwhile, or the database away: the next start looks again.
    }
  }
}
