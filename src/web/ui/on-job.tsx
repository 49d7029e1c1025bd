import type { Moment } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';
import type { WorkspaceCollections } from '../../store';
import type { Name } from '../../store/collections';
import { Capped, OnDeletedJob } from './parts';

// How a record that hangs off a job names it: a link to the job's page, and, while the job is
// deleted, a notice that the record is gone from the API with it. And how the job's page lists
// the records on it.

export function JobLink({ ctx, jobId }: { ctx: ServiceContext; jobId: string | null }) {
  const job = jobId === null ? undefined : ctx.ws.get('jobs', jobId);
  if (!job) {
    return <>—</>;
  }
  return <a href={`/jobs/${job.id}`}>{jobLabel(job)}</a>;
}

/** Whether the record's job is deleted: the record, and its links (PDFs, downloads), are offline. */
export function onDeletedJob(ctx: ServiceContext, jobId: string | null): boolean {
  const job = jobId === null ? undefined : ctx.ws.get('jobs', jobId);
  return job !== undefined && job.deleted_at !== null;
}

export function DeletedJobNotice({ ctx, jobId }: { ctx: ServiceContext; jobId: string | null }) {
  return jobId !== null && onDeletedJob(ctx, jobId) ? <OnDeletedJob jobId={jobId} /> : null;
}

/** What stands for a record's links while its job is deleted: they answer 404 as the API does. */
export function OfflineLinks({ what }: { what: string }) {
  return <p class="muted">{what} offline while the job is deleted.</p>;
}

/** The line above a record's title: its workspace, and what kind of record it is. */
export function Crumbs({ ctx, kind }: { ctx: ServiceContext; kind: string }) {
  return (
    <p class="muted">
      <a href={`/workspaces/${ctx.workspace.id}`}>{ctx.workspace.name}</a> · {kind}
    </p>
  );
}

/** At most this many of each kind of record on a job are listed; the page says when there are more. */
export const JOB_LIST_CAP = 100;

export interface Listed<T> {
  items: T[];
  more: boolean;
}

type OnJobColl = {
  [K in Name<WorkspaceCollections>]: WorkspaceCollections[K] extends { job_id: string | null }
    ? K
    : never;
}[Name<WorkspaceCollections>];

/** The newest records of `coll` on the job, at most JOB_LIST_CAP, read from its workspace only. */
export function onJob<K extends OnJobColl>(
  ctx: ServiceContext,
  coll: K,
  jobId: string,
): Listed<WorkspaceCollections[K]> {
  const page = ctx.ws.scan(coll, {
    where: (rec) => (rec as { job_id: string | null }).job_id === jobId,
    limit: JOB_LIST_CAP,
  });
  return { items: page.items, more: page.hasMore };
}

/** A list cut at JOB_LIST_CAP: says so. */
export function CappedOnJob({ list, what }: { list: Listed<unknown>; what: string }) {
  return <Capped more={list.more} shown={JOB_LIST_CAP} what={what} />;
}

/** A moment of a job's timeline, when the record has the date. */
export const momentAt = (at: string | null, what: string, href: string): Moment[] =>
  at ? [{ at, what, href }] : [];

/** What a page calls a job: its number and its name, else its address. */
export const jobLabel = (
  j: Pick<WorkspaceCollections['jobs'], 'job_number' | 'name' | 'address'>,
) => `${j.job_number} ${j.name ?? j.address}`;

/** A record's job as a list names it; none (or one gone) is empty. */
export function jobNameOf(ctx: ServiceContext, id: string | null): string {
  const job = id === null ? undefined : ctx.ws.get('jobs', id);
  return job ? jobLabel(job) : '';
}
