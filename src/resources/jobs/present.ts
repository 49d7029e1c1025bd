import type { z } from '@hono/zod-openapi';
import type { ServiceContext } from '../../platform/context';
import { defineRecords } from '../../platform/family';
import { findContact } from '../contacts/service';
import { jobMoney, receivedByJob } from './money';
import type { Job, JobOut, PersonRefSchema } from './schema';

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
 * A job as the API shows it. `received` is its money in hand when the caller already knows it
 * (a list: see presentJobs); otherwise it is read from the job's payments.
 */
export function presentJob(
  ctx: ServiceContext,
  job: Job,
  received = receivedByJob(ctx, job.id).get(job.id) ?? 0,
): JobOut {
  const stage = ctx.ws.get('stages', job.stage_id);
  const pipeline = stage && ctx.ws.get('pipelines', stage.pipeline_id);
  const homeowner = person(ctx, job.homeowner_id);
  const adjuster = person(ctx, job.adjuster_id);
  return {
    id: job.id,
    object: 'job',
    job_number: job.job_number,
    name: job.name,
    job_type: job.job_type,
    stage: stage?.key ?? null,
    stage_label: stage?.label ?? null,
    stage_is_completed: stage?.is_completed ?? null,
    stage_is_lost: stage?.is_lost ?? null,
    stage_entered_at: job.stage_entered_at,
    pipeline_id: pipeline?.id ?? null,
    pipeline_name: pipeline?.name ?? null,
    address: job.address,
    city: job.city,
    state: job.state,
    postal_code: job.postal_code,
    county: job.county,
    homeowner_id: homeowner?.id ?? null,
    homeowner,
    adjuster_id: adjuster?.id ?? null,
    adjuster,
    secondary_contact_ids: liveContacts(ctx, job.secondary_contact_ids),
    secondary_adjuster_ids: liveContacts(ctx, job.secondary_adjuster_ids),
    assigned_to_id: job.assigned_to_id,
    assigned_to_name: job.assigned_to_id ? userName(ctx, job.assigned_to_id) : null,
    assignee_ids: job.assignee_ids,
    assignee_names: job.assignee_ids.map((id) => userName(ctx, id) ?? ''),
    insurance_company: job.insurance_company,
    claim_number: job.claim_number,
    policy_number: job.policy_number,
    date_of_loss: job.date_of_loss,
    damage_types: job.damage_types,
    tags: job.tags,
    lead_source: job.lead_source,
    priority: job.priority,
    mortgage_company: job.mortgage_company,
    financing_method: job.financing_method,
    rcv_amount: job.rcv_amount,
    acv_amount: job.acv_amount,
    deductible: job.deductible,
    supplements_amount: job.supplements_amount,
    estimated_amount: job.estimated_amount,
    final_amount: job.final_amount,
    ...jobMoney(job, received),
    contract_date: job.contract_date,
    installation_date: job.installation_date,
    archived: job.archived,
    completed_at: job.completed_at,
    lost_at: job.lost_at,
    lost_reason: job.lost_reason,
    created_at: job.created_at,
    updated_at: job.updated_at,
    url: `${ctx.appUrl}/jobs/${job.id}`,
    portal_url: `${ctx.appUrl}/portal/${job.portal_token}`,
  };
}

/** presentJob for the jobs of one list: the payments are grouped by job once, on first use. */
export function presentJobs(ctx: ServiceContext): (job: Job) => JobOut {
  let received: Map<string, number> | undefined;
  return (job) => {
    received ??= receivedByJob(ctx);
    return presentJob(ctx, job, received.get(job.id) ?? 0);
  };
}

/**
 * Jobs as the API shows them, answered from their kept JSON text: presenting and serialising a
 * page of them again for every read was most of what a read cost. Their presentation reads their
 * people, teammates, column and board, and payments (the money figures).
 */
export const jobRecords = defineRecords({
  coll: 'jobs',
  present: (ctx, job) => presentJob(ctx, job),
  presentAll: presentJobs,
  visible: (_ctx, job) => job.deleted_at === null,
  reads: ['contacts', 'users', 'stages', 'pipelines', 'payments'],
});
