import type { DueWork } from '../platform/family';
import type { Runtime } from '../platform/runtime';
import { GLOBAL, type Rec, type WorkspaceCollections } from '../store';
import type { Name } from '../store/collections';
import { FAMILIES } from '.';

type Coll = Name<WorkspaceCollections>;

/** Every family's clock-driven work, by the collection it watches. */
const DUE = new Map<string, DueWork[]>();
for (const work of FAMILIES.flatMap((f) => f.due ?? [])) {
  DUE.set(work.coll, [...(DUE.get(work.coll) ?? []), work]);
}

const taskKey = (work: DueWork, wsId: string, id: string) => `${work.name}:${wsId}:${id}`;

/**
 * Schedules each family's due work from the change that puts a record in a state where it falls
 * due (so the API, the control API and a replayed journal schedule it alike), and cancels it when
 * a change takes the record out of that state. When it runs, it reads the record again.
 */
export function watchDueWork(rt: Runtime): void {
  const plan = (work: DueWork, wsId: string, rec: Rec | undefined, id: string) => {
    const at = rec === undefined ? undefined : work.at(rec as never);
    if (at === undefined) {
      rt.scheduler.cancel(taskKey(work, wsId, id));
      return;
    }
    rt.scheduler.schedule(taskKey(work, wsId, id), at, () => run(rt, work, wsId, id), wsId);
  };
  rt.store.onLoaded((wsId) => {
    const scoped = rt.store.workspace(wsId);
    for (const [coll, works] of DUE) {
      for (const rec of scoped.values(coll as Coll)) {
        for (const work of works) {
          plan(work, wsId, rec, rec.id);
        }
      }
    }
  });
  // After each commit, and each write another node made that this one took in (several
  // nodes: whichever node holds the workspace runs the work, once, under its lease).
  rt.store.onApplied((changes) => {
    for (const change of changes) {
      const works = change.scope === GLOBAL ? undefined : DUE.get(change.coll);
      for (const work of works ?? []) {
        plan(work, change.scope, change.after as Rec | undefined, change.id);
      }
    }
  });
}

function run(rt: Runtime, work: DueWork, wsId: string, id: string): void {
  rt.store.transaction((tx) => {
    const ws = tx.workspace(wsId);
    const rec = ws.get(work.coll, id);
    const at = rec === undefined ? undefined : work.at(rec as never);
    const clock = rt.clocks.of(wsId);
    if (rec !== undefined && at !== undefined && at <= clock.nowMs()) {
      work.run(ws, rec as never, clock.iso());
    }
  });
}
