import type { ServiceContext } from '../../platform/service-context';
import { presentEstimate } from '../../resources/estimates/present';
import { presentFile } from '../../resources/files/present';
import { presentInvoice } from '../../resources/invoices/present';
import { presentJob } from '../../resources/jobs/present';
import type { Job } from '../../resources/jobs/schema';
import { presentNote } from '../../resources/notes/present';
import { presentPayment } from '../../resources/payments/present';
import type { Stage } from '../../resources/pipelines/schema';
import { stagesOf } from '../../resources/pipelines/service';
import { presentTask } from '../../resources/tasks/present';
import type { WorkspaceCollections } from '../../store';
import { type Moment, timelineOf } from './job-timeline';
import { contactName } from './parts';

// What a job's page shows, read through the families' own presenters (the same figures GET /v1
// answers), each list a scan of the job's workspace only.

/** At most this many of each kind of record on a job are listed; the page says when there are more. */
export const JOB_LIST_CAP = 100;

type OnJob = 'estimates' | 'invoices' | 'payments' | 'notes' | 'files' | 'tasks';

export interface Listed<T> {
  items: T[];
  more: boolean;
}

/** The newest records of `coll` on the job. */
function onJob<K extends OnJob>(
  ctx: ServiceContext,
  coll: K,
  jobId: string,
): Listed<WorkspaceCollections[K]> {
  const page = ctx.ws.scan(coll, { where: (rec) => rec.job_id === jobId, limit: JOB_LIST_CAP });
  return { items: page.items, more: page.hasMore };
}

function presented<T, O>(list: Listed<T>, present: (rec: T) => O): Listed<O> {
  return { items: list.items.map(present), more: list.more };
}

/** A person on the job, a contact of the workspace: deleted ones are shown as such. */
export interface PersonOnJob {
  role: string;
  id: string;
  name: string;
  deleted: boolean;
}

function people(ctx: ServiceContext, job: Job): PersonOnJob[] {
  const roles: [string, string | null][] = [
    ['Homeowner', job.homeowner_id],
    ['Adjuster', job.adjuster_id],
    ...job.secondary_contact_ids.map((id): [string, string] => ['Secondary contact', id]),
    ...job.secondary_adjuster_ids.map((id): [string, string] => ['Secondary adjuster', id]),
  ];
  return roles.flatMap(([role, id]) => {
    const contact = id === null ? undefined : ctx.ws.get('contacts', id);
    if (!contact) {
      return [];
    }
    return [
      { role, id: contact.id, name: contactName(contact), deleted: contact.deleted_at !== null },
    ];
  });
}

export function jobView(ctx: ServiceContext, job: Job) {
  const out = presentJob(ctx, job);
  const stage = ctx.ws.get('stages', job.stage_id);
  const stages: Stage[] = stage ? stagesOf(ctx, stage.pipeline_id) : [];
  const raw = {
    estimates: onJob(ctx, 'estimates', job.id),
    invoices: onJob(ctx, 'invoices', job.id),
    payments: onJob(ctx, 'payments', job.id),
    notes: onJob(ctx, 'notes', job.id),
    files: onJob(ctx, 'files', job.id),
    tasks: onJob(ctx, 'tasks', job.id),
  };
  const timeline: Moment[] = timelineOf(ctx, job, raw);
  return {
    job,
    out,
    stages,
    people: people(ctx, job),
    estimates: presented(raw.estimates, (e) => presentEstimate(ctx, e)),
    invoices: presented(raw.invoices, (i) => presentInvoice(ctx, i)),
    payments: presented(raw.payments, (p) => presentPayment(ctx, p)),
    notes: presented(raw.notes, (n) => presentNote(ctx, n)),
    files: presented(raw.files, (f) => presentFile(ctx, f)),
    tasks: presented(raw.tasks, (t) => presentTask(ctx, t)),
    timeline,
  };
}

export type JobView = ReturnType<typeof jobView>;
export type OnJobRecords = { [K in OnJob]: Listed<WorkspaceCollections[K]> };
