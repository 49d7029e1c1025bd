import type { Platform } from '../platform/context';
import { GLOBAL, type TxScope, type WorkspaceCollections } from '../store';
import { hasContact } from './jobs/service';

const RETAIN_MS = 30 * 24 * 60 * 60 * 1000; // spec, Limits: recoverable deletion period, 30 days
const RECOVERABLE = ['jobs', 'contacts'] as const;
type Recoverable = (typeof RECOVERABLE)[number];

/** Collections whose records hang off a job and go with it. */
const ON_JOB = [
  'notes',
  'tasks',
  'timeline',
  'files',
  'estimates',
  'invoices',
  'payments',
] as const;

const taskKey = (coll: Recoverable, wsId: string, id: string) => `purge:${coll}:${wsId}:${id}`;

/**
 * spec, Conventions: a deleted job or contact is kept 30 days with everything on it, then purged.
 * The purge is scheduled from the change that deleted it (so the API, the app and a replayed
 * journal all schedule it alike) and checks the record again when it runs: a restore, or a
 * later deletion, makes it do nothing.
 */
export function watchDeletions(rt: Platform): void {
  const schedule = (coll: Recoverable, wsId: string, id: string, deletedAt: string) =>
    rt.scheduler.schedule(taskKey(coll, wsId, id), Date.parse(deletedAt) + RETAIN_MS, () =>
      purge(rt, coll, wsId, id),
    );
  rt.store.onLoaded((wsId) => {
    const scoped = rt.store.workspace(wsId);
    for (const coll of RECOVERABLE) {
      for (const rec of scoped.values(coll)) {
        if (rec.deleted_at) {
          schedule(coll, wsId, rec.id, rec.deleted_at);
        }
      }
    }
  });
  rt.store.onCommit((changes) => {
    for (const change of changes) {
      const coll = change.coll as Recoverable;
      if (change.scope === GLOBAL || !RECOVERABLE.includes(coll)) {
        continue;
      }
      const deletedAt = (change.after as { deleted_at?: string | null } | undefined)?.deleted_at;
      if (deletedAt) {
        schedule(coll, change.scope, change.id, deletedAt);
      } else {
        rt.scheduler.cancel(taskKey(coll, change.scope, change.id));
      }
    }
  });
}

/** Whether a deleted record's 30 days have run out on the clock. */
const expired = (rt: Platform, deletedAt: string | null | undefined): deletedAt is string =>
  typeof deletedAt === 'string' && Date.parse(deletedAt) + RETAIN_MS <= rt.clock.nowMs();

function purge(rt: Platform, coll: Recoverable, wsId: string, id: string): void {
  rt.store.transaction((tx) => {
    const ws = tx.workspace(wsId);
    if (!expired(rt, ws.get(coll, id)?.deleted_at)) {
      return;
    }
    if (coll === 'jobs') {
      purgeJob(ws, id);
    } else {
      purgeContact(ws, id);
    }
  });
}

function purgeJob(ws: TxScope<WorkspaceCollections>, id: string): void {
  ws.delete('jobs', id);
  for (const coll of ON_JOB) {
    for (const rec of ws.all(coll)) {
      if (rec.job_id === id) {
        ws.delete(coll, rec.id);
      }
    }
  }
}

/** A purged contact takes its own tasks with it, and leaves the jobs (and their tasks) it was on. */
function purgeContact(ws: TxScope<WorkspaceCollections>, id: string): void {
  ws.delete('contacts', id);
  for (const task of ws.all('tasks')) {
    if (task.contact_id === id && task.job_id === null) {
      ws.delete('tasks', task.id);
    } else if (task.contact_id === id) {
      ws.put('tasks', { ...task, contact_id: null });
    }
  }
  for (const job of ws.all('jobs')) {
    if (hasContact(job, id)) {
      // The link was already hidden while the contact was deleted: nothing a client sees changes.
      ws.put('jobs', {
        ...job,
        homeowner_id: job.homeowner_id === id ? null : job.homeowner_id,
        adjuster_id: job.adjuster_id === id ? null : job.adjuster_id,
        secondary_contact_ids: job.secondary_contact_ids.filter((c) => c !== id),
        secondary_adjuster_ids: job.secondary_adjuster_ids.filter((c) => c !== id),
      });
    }
  }
}

/**
 * Brings a deleted record back within its 30 days; a live one is returned as it is. Past them
 * there is nothing to restore (undefined: 404) and the record is purged on the spot, even when
 * its purge task has not run yet: the 30 days on the clock are the rule, not the timer.
 */
export function restore<K extends Recoverable>(
  rt: Platform,
  coll: K,
  id: string,
): { workspaceId: string; record: WorkspaceCollections[K] } | undefined {
  for (const ws of rt.store.global.values('workspaces')) {
    const found = rt.store.workspace(ws.id).get(coll, id);
    if (found === undefined) {
      continue;
    }
    if (expired(rt, found.deleted_at)) {
      purge(rt, coll, ws.id, id);
      return undefined;
    }
    const record = found.deleted_at
      ? rt.store.transaction((tx) =>
          tx.workspace(ws.id).put(coll, { ...found, deleted_at: null, updated_at: rt.clock.iso() }),
        )
      : found;
    return { workspaceId: ws.id, record };
  }
  return undefined;
}
