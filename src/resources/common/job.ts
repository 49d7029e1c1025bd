import { ApiError } from '../../platform/errors';
import type { ServiceContext } from '../../platform/service-context';
import type { WorkspaceCollections } from '../../store';

type Job = WorkspaceCollections['jobs'];

// What every family asks of a job, as the jobs collection holds it. A deleted job is in the
// recoverable area: it, and everything on it, is gone from the API until it is restored. Every
// resource that hangs off a job asks here, and so does the jobs family.

export function findJob(ctx: ServiceContext, id: string): Job | undefined {
  const job = ctx.ws.get('jobs', id);
  return job && job.deleted_at === null ? job : undefined;
}

export const jobIsLive = (ctx: ServiceContext, id: string | null): boolean =>
  id === null || findJob(ctx, id) !== undefined;

export function getJob(ctx: ServiceContext, id: string): Job {
  const job = findJob(ctx, id);
  if (!job) {
    throw new ApiError('not_found', 'no such job');
  }
  return job;
}

/** For a field that names a job: 400 naming the field when there is no such job. */
export function requireJob(ctx: ServiceContext, id: string, field: string): Job {
  const job = findJob(ctx, id);
  if (!job) {
    throw new ApiError('invalid_request', `${field} is not a job of this workspace`, field);
  }
  return job;
}

/** Is `contactId` on the job: homeowner, adjuster, or a secondary contact or adjuster. */
export const hasContact = (job: Job, contactId: string) =>
  job.homeowner_id === contactId ||
  job.adjuster_id === contactId ||
  job.secondary_contact_ids.includes(contactId) ||
  job.secondary_adjuster_ids.includes(contactId);
