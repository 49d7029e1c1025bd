import type { z } from '@hono/zod-openapi';
import { defineRecords, shape } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';
import { dollars } from '../common/cents';
import { findContact } from '../contacts/api';
import { jobMoney, receivedByJob, receivedCents } from '../money/api';
import { type Job, type JobOut, JobSchema, type PersonRefSchema } from './schema';

type PersonRef = z.infer<typeof PersonRefSchema>;

// decisions.md: while a contact is deleted (recoverable), jobs show neither its id nor its
// PersonRef; the link itself is kept, so restoring the contact brings both back.
function person(ctx: ServiceContext, id: string | null): PersonRef | null {
  const contact = id === null ? undefined : findContact(ctx, id);
  if (!contact) {
    return null;
  }
  const name =
    [contact.first_name, contact.last_name].filter((p) => p).join(' ') || contact.company;
  return { id: contact.id, name: name ?? null, email: contact.email, phone: contact.phone };
}

const liveContacts = (ctx: ServiceContext, ids: string[]) =>
  ids.filter((id) => findContact(ctx, id) !== undefined);

const userName = (ctx: ServiceContext, id: string) => ctx.ws.get('users', id)?.name ?? null;

/**
 * A job as the API shows it: what it stores, with its column, people, team and money worked
 * out. Its money in hand is kept on it; a job of an older data file has it summed from its
 * payments (`received`, when a list already summed them: see presentJobs).
 */
export function presentJob(
  ctx: ServiceContext,
  job: Job,
  received = job.amount_received ?? dollars(receivedCents(ctx.ws.values('payments'), job.id)),
): JobOut {
  const stage = ctx.ws.get('stages', job.stage_id);
  const pipeline = stage && ctx.ws.get('pipelines', stage.pipeline_id);
  const homeowner = person(ctx, job.homeowner_id);
  const adjuster = person(ctx, job.adjuster_id);
  return shape(JobSchema, job, {
    object: 'job',
    stage: stage?.key ?? null,
    stage_label: stage?.label ?? null,
    stage_is_completed: stage?.is_completed ?? null,
    stage_is_lost: stage?.is_lost ?? null,
    pipeline_id: pipeline?.id ?? null,
    pipeline_name: pipeline?.name ?? null,
    homeowner_id: homeowner?.id ?? null,
    homeowner,
    adjuster_id: adjuster?.id ?? null,
    adjuster,
    secondary_contact_ids: liveContacts(ctx, job.secondary_contact_ids),
    secondary_adjuster_ids: liveContacts(ctx, job.secondary_adjuster_ids),
    assigned_to_name: job.assigned_to_id ? userName(ctx, job.assigned_to_id) : null,
    assignee_names: job.assignee_ids.map((id) => userName(ctx, id) ?? ''),
    ...jobMoney(job, received),
    url: `${ctx.appUrl}/jobs/${job.id}`,
    portal_url: `${ctx.appUrl}/portal/${job.portal_token}`,
  });
}

/**
 * presentJob for the jobs of one list: for jobs of an older data file, the payments are grouped
 * by job once, on first use.
 */
export function presentJobs(ctx: ServiceContext): (job: Job) => JobOut {
  let received: Map<string, number> | undefined;
  return (job) => {
    if (job.amount_received !== undefined) {
      return presentJob(ctx, job, job.amount_received);
    }
    received ??= receivedByJob(ctx);
    return presentJob(ctx, job, received.get(job.id) ?? 0);
  };
}

/**
 * Jobs as the API shows them, answered from their kept JSON text: presenting and serialising a
 * page of them again for every read was most of what a read cost. Their presentation reads their
 * people, teammates, column and board.
 */
export const jobRecords = defineRecords({
  coll: 'jobs',
  schema: JobSchema,
  present: (ctx, job) => presentJob(ctx, job),
  presentAll: presentJobs,
  visible: (_ctx, job) => job.deleted_at === null,
  // No payments: a payment change writes its job (syncReceived), and so makes its text again.
  reads: ['contacts', 'users', 'stages', 'pipelines'],
});
