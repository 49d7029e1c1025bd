import type { TxScope, WorkspaceCollections } from '../../store';
import { hasContact } from '../common/job';

/**
 * decisions.md: a purged contact takes its own tasks (those on no job) with it, and leaves the
 * jobs, and the tasks on them, it was on.
 */
export function purgeContact(ws: TxScope<WorkspaceCollections>, id: string): void {
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
