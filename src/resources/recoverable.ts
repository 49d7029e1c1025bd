import type { Family } from '../platform/family';
import { holderOf } from '../platform/holder-of';
import type { Runtime } from '../platform/runtime';
import { GLOBAL, type Rec, type WorkspaceCollections } from '../store';
import type { Name } from '../store/collections';
import { FAMILIES } from '.';

const RETAIN_MS = 30 * 24 * 60 * 60 * 1000; // spec, Limits: recoverable deletion period, 30 days

type Coll = Name<WorkspaceCollections>;
type Deletable = Rec & { deleted_at?: string | null };

/** The families whose deleted records wait in the recoverable area, by collection. */
const RECOVERABLE = new Map<string, NonNullable<Family['recoverable']>>(
  FAMILIES.flatMap((f) =>
    f.records && f.recoverable ? [[f.records.coll as string, f.recoverable] as const] : [],
  ),
);

/** The collections whose records hang off a job, and go with it. */
const ON_JOB: readonly Coll[] = FAMILIES.flatMap((f) => f.onJob?.colls ?? []);

const taskKey = (coll: string, wsId: string, id: string) => `purge:${coll}:${wsId}:${id}`;

/**
 * spec, Conventions: a deleted job or contact is kept 30 days with everything on it, then purged.
 * The purge is scheduled from the change that deleted it (so the API, the app and a replayed
 * journal all schedule it alike) and checks the record again when it runs: a restore, or a
 * later deletion, makes it do nothing.
 */
export function watchDeletions(rt: Runtime): void {
  const schedule = (coll: string, wsId: string, id: string, deletedAt: string) =>
    rt.scheduler.schedule(
      taskKey(coll, wsId, id),
      Date.parse(deletedAt) + RETAIN_MS,
      () => purge(rt, coll, wsId, id),
      wsId,
    );
  rt.store.onLoaded((wsId) => {
    const scoped = rt.store.workspace(wsId);
    for (const coll of RECOVERABLE.keys()) {
      for (const rec of scoped.values(coll as Coll) as Iterable<Deletable>) {
        if (rec.deleted_at) {
          schedule(coll, wsId, rec.id, rec.deleted_at);
        }
      }
    }
  });
  // After each commit, and each write another node made that this one took in (several
  // nodes: whichever node holds the workspace runs the work, once, under its lease).
  rt.store.onApplied((changes) => {
    for (const change of changes) {
      if (change.scope === GLOBAL || !RECOVERABLE.has(change.coll)) {
        continue;
      }
      const deletedAt = (change.after as Deletable | undefined)?.deleted_at;
      if (deletedAt) {
        schedule(change.coll, change.scope, change.id, deletedAt);
      } else {
        rt.scheduler.cancel(taskKey(change.coll, change.scope, change.id));
      }
    }
  });
}

/** Whether a deleted record's 30 days have run out on its workspace's clock. */
const expired = (
  rt: Runtime,
  wsId: string,
  deletedAt: string | null | undefined,
): deletedAt is string =>
  typeof deletedAt === 'string' && Date.parse(deletedAt) + RETAIN_MS <= rt.clocks.of(wsId).nowMs();

function purge(rt: Runtime, coll: string, wsId: string, id: string): void {
  const recoverable = RECOVERABLE.get(coll);
  rt.store.transaction((tx) => {
    const ws = tx.workspace(wsId);
    const rec = ws.get(coll as Coll, id) as Deletable | undefined;
    if (recoverable && expired(rt, wsId, rec?.deleted_at)) {
      recoverable.purge(ws, id, ON_JOB);
    }
  });
}

/**
 * Brings a deleted record back within its 30 days; a live one is returned as it is. Past them
 * there is nothing to restore (undefined: 404) and the record is purged on the spot, even when
 * its purge task has not run yet: the 30 days on the clock are the rule, not the timer.
 */
export function restore(
  rt: Runtime,
  coll: Coll,
  id: string,
): { workspaceId: string; record: WorkspaceCollections[Coll] } | undefined {
  const held = holderOf(rt.store, coll, id);
  if (held === undefined) {
    return undefined;
  }
  const { workspaceId } = held;
  const found = held.record as Deletable;
  if (expired(rt, workspaceId, found.deleted_at)) {
    purge(rt, coll, workspaceId, id);
    return undefined;
  }
  const record = found.deleted_at
    ? rt.store.transaction((tx) =>
        tx.workspace(workspaceId).put(coll, {
          ...found,
          deleted_at: null,
          updated_at: rt.clocks.of(workspaceId).iso(),
        } as unknown as WorkspaceCollections[Coll]),
      )
    : found;
  return { workspaceId, record: record as WorkspaceCollections[Coll] };
}
