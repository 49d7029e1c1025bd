import type { ServiceContext } from '../../platform/service-context';
import { OnDeletedJob } from './parts';

// How a record that hangs off a job names it: a link to the job's page, and, while the job is
// deleted, a notice that the record is gone from the API with it.

export function JobLink({ ctx, jobId }: { ctx: ServiceContext; jobId: string | null }) {
  const job = jobId === null ? undefined : ctx.ws.get('jobs', jobId);
  if (!job) {
    return <>—</>;
  }
  return (
    <a href={`/jobs/${job.id}`}>
      {job.job_number} {job.name ?? job.address}
    </a>
  );
}

export function DeletedJobNotice({ ctx, jobId }: { ctx: ServiceContext; jobId: string | null }) {
  const job = jobId === null ? undefined : ctx.ws.get('jobs', jobId);
  return job?.deleted_at ? <OnDeletedJob jobId={job.id} /> : null;
}

/** The line above a record's title: its workspace, and what kind of record it is. */
export function Crumbs({ ctx, kind }: { ctx: ServiceContext; kind: string }) {
  return (
    <p class="muted">
      <a href={`/workspaces/${ctx.workspace.id}`}>{ctx.workspace.name}</a> · {kind}
    </p>
  );
}
