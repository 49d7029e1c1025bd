import { ApiError } from '../../platform/errors';
import { newId, randomToken } from '../../platform/ids';
import { type ListQuery, timeFilter } from '../../platform/paging';
import type { ServiceContext } from '../../platform/service-context';
import type { Position, TxScope, WorkspaceCollections } from '../../store';
import type { Name } from '../../store/collections';
import { getJob, hasContact } from '../common/job';
import { findContact, getContact } from '../contacts/api';
import { putNote } from '../notes/api';
import { listStages } from '../pipelines/api';
import { blank, either, fieldsOf, NEW_JOB } from './fields';
import type { JobCreate, JobListQuery, JobSearchQuery, JobUpdate } from './input';
import type { Job } from './schema';
import { enterStage, firstStage, requirePipeline, resolveStage } from './stages';

function nextJobNumber(tx: TxScope<WorkspaceCollections>): string {
  const counter = tx.get('counters', 'job_number') ?? { id: 'job_number', value: 1000 };
  const value = counter.value + 1;
  tx.put('counters', { id: 'job_number', value });
  return `J-${value}`;
}

export function createJob(ctx: ServiceContext, input: JobCreate): Job {
  const fields = fieldsOf(ctx, input);
  if (input.pipeline_id !== undefined) {
    requirePipeline(ctx, input.pipeline_id);
  }
  const stage =
    input.stage === undefined
      ? firstStage(ctx, input.pipeline_id)
      : resolveStage(ctx, input.stage, { pipelineId: input.pipeline_id });
  const now = ctx.clock.iso();
  return ctx.ws.transaction((tx) => {
    const job = tx.put('jobs', {
      ...NEW_JOB,
      ...fields,
      id: newId(),
      object: 'job',
      job_number: nextJobNumber(tx),
      name: either(input.name, input.job_name) ?? null,
      address: either(input.address, input.property_address) ?? '',
      ...enterStage(stage, now),
      assignee_ids: fields.assigned_to_id ? [fields.assigned_to_id] : [],
      portal_token: randomToken('', 24),
      created_at: now,
      updated_at: now,
      deleted_at: null,
    });
    if (input.notes?.trim()) {
      putNote(tx, { job_id: job.id, content: input.notes, author_id: null, now });
    }
    return job;
  });
}

/** Where a PATCH moves the job: a named stage, or the first column of another pipeline. */
function nextStage(ctx: ServiceContext, job: Job, input: JobUpdate) {
  const current = ctx.ws.get('stages', job.stage_id);
  if (input.pipeline_id !== undefined) {
    requirePipeline(ctx, input.pipeline_id);
  }
  if (input.stage !== undefined) {
    return resolveStage(ctx, input.stage, {
      pipelineId: input.pipeline_id,
      prefer: current?.pipeline_id,
    });
  }
  if (input.pipeline_id !== undefined && input.pipeline_id !== current?.pipeline_id) {
    return firstStage(ctx, input.pipeline_id);
  }
  return undefined;
}

/** spec, JobUpdate: assigned_to changes the primary assignee; the co-assignees stay. */
function nextAssignees(job: Job, primary: string | null): string[] {
  const others = job.assignee_ids.filter((id) => id !== job.assigned_to_id && id !== primary);
  return primary === null ? others : [primary, ...others];
}

export function updateJob(ctx: ServiceContext, id: string, input: JobUpdate): Job {
  const job = getJob(ctx, id);
  const next: Job = { ...job, ...fieldsOf(ctx, input) };
  // spec, JobUpdate: name and address cannot be cleared; the schema refuses null and "".
  const name = either(input.name, input.job_name);
  if (name !== undefined) {
    next.name = name;
  }
  const address = either(input.address, input.property_address);
  if (address !== undefined) {
    next.address = address;
  }
  if (input.lost_reason !== undefined) {
    next.lost_reason = blank(input.lost_reason) ?? null;
  }
  if (input.archived !== undefined) {
    next.archived = input.archived;
  }
  if (next.assigned_to_id !== job.assigned_to_id) {
    next.assignee_ids = nextAssignees(job, next.assigned_to_id);
  }
  const now = ctx.clock.iso();
  const stage = nextStage(ctx, job, input);
  const moved = stage !== undefined && stage.id !== job.stage_id;
  if (moved) {
    Object.assign(next, enterStage(stage, now));
  }
  if (JSON.stringify(next) === JSON.stringify(job)) {
    return job; // nothing changed: no write, no event
  }
  return ctx.ws.transaction((tx) => {
    if (moved) {
      tx.put('timeline', {
        id: newId(),
        object: 'timeline_entry',
        job_id: job.id,
        kind: 'stage_changed',
        from_stage_id: job.stage_id,
        to_stage_id: stage.id,
        created_at: now,
      });
    }
    return tx.put('jobs', { ...next, updated_at: now });
  });
}

/** spec, Conventions: kept 30 days in a recoverable area with everything on it. */
export function deleteJob(ctx: ServiceContext, id: string): Job {
  const job = getJob(ctx, id);
  const now = ctx.clock.iso();
  return ctx.ws.transaction((tx) => tx.put('jobs', { ...job, deleted_at: now, updated_at: now }));
}

/** As hasContact, for a live contact only: a deleted one's links are hidden (decisions.md). */
const isOnJob = (ctx: ServiceContext, job: Job, contactId: string) =>
  findContact(ctx, contactId) !== undefined && hasContact(job, contactId);

function stageFilter(ctx: ServiceContext, q: JobListQuery): (job: Job) => boolean {
  const stages = listStages(ctx);
  let ids: Set<string> | undefined;
  if (q.stage !== undefined) {
    const stage = stages.find((s) => s.key === q.stage);
    if (!stage) {
      throw new ApiError('invalid_request', `no stage has the key "${q.stage}"`, 'stage');
    }
    ids = new Set([stage.id]);
  }
  if (q.pipeline_id !== undefined) {
    const onPipeline = stages.filter((s) => s.pipeline_id === q.pipeline_id).map((s) => s.id);
    ids = new Set(onPipeline.filter((s) => ids === undefined || ids.has(s)));
  }
  return ids === undefined ? () => true : (job) => ids.has(job.stage_id);
}

export function listJobs(ctx: ServiceContext, q: JobListQuery, after: Position | undefined) {
  const inTime = timeFilter(q);
  const onStage = stageFilter(ctx, q);
  const archived = q.archived ?? 'false';
  return ctx.ws.scan('jobs', {
    after,
    limit: q.limit,
    where: (job) =>
      job.deleted_at === null &&
      (archived === 'any' || job.archived === (archived === 'true')) &&
      inTime(job) &&
      onStage(job) &&
      (q.job_type === undefined || job.job_type === q.job_type) &&
      (q.assigned_to === undefined || job.assignee_ids.includes(q.assigned_to)) &&
      (q.contact_id === undefined || isOnJob(ctx, job, q.contact_id)),
  });
}

const norm = (s: string) => s.trim().toLowerCase().replace(/\s+/g, ' ');

/**
 * spec, GET /jobs/search: address and name match in part, job and claim numbers whole, all
 * case-insensitive; several criteria must all match. No criteria: an empty list, never the
 * newest jobs. Archived jobs are found too (decisions.md).
 */
export function searchJobs(ctx: ServiceContext, q: JobSearchQuery): Job[] {
  const tests: ((job: Job) => boolean)[] = [];
  // Commas are punctuation here: "12 Elm St, Dallas, TX" finds "12 Elm St" in Dallas, TX.
  const line = (text: string) => norm(text.replace(/,/g, ' '));
  const address = q.address?.trim() ? line(q.address) : undefined;
  if (address !== undefined) {
    tests.push((job) =>
      line([job.address, job.city, job.state, job.postal_code].filter((p) => p).join(' ')).includes(
        address,
      ),
    );
  }
  const name = q.name?.trim() ? norm(q.name) : undefined;
  if (name !== undefined) {
    tests.push((job) => job.name !== null && norm(job.name).includes(name));
  }
  const jobNumber = q.job_number?.trim() ? norm(q.job_number) : undefined;
  if (jobNumber !== undefined) {
    tests.push((job) => norm(job.job_number) === jobNumber);
  }
  const claim = q.claim_number?.trim() ? norm(q.claim_number) : undefined;
  if (claim !== undefined) {
    tests.push((job) => job.claim_number !== null && norm(job.claim_number) === claim);
  }
  const contactId = q.contact_id;
  if (contactId !== undefined) {
    tests.push((job) => isOnJob(ctx, job, contactId));
  }
  if (tests.length === 0) {
    return [];
  }
  return ctx.ws.scan('jobs', {
    limit: q.limit,
    where: (job) => job.deleted_at === null && tests.every((test) => test(job)),
  }).items;
}

/**
 * spec, GET /contacts/{id}/jobs: every job the person is on, archived included; the time filters
 * apply as on every paged list (spec, Pagination 3).
 */
export function jobsOfContact(
  ctx: ServiceContext,
  contactId: string,
  q: ListQuery,
  after: Position | undefined,
) {
  getContact(ctx, contactId);
  const inTime = timeFilter(q);
  return ctx.ws.scan('jobs', {
    after,
    limit: q.limit,
    where: (job) => job.deleted_at === null && hasContact(job, contactId) && inTime(job),
  });
}

/** spec, Conventions: 30 days after its deletion a job goes for good, with everything on it. */
export function purgeJob(
  ws: TxScope<WorkspaceCollections>,
  id: string,
  onJob: readonly Name<WorkspaceCollections>[],
): void {
  ws.delete('jobs', id);
  for (const coll of onJob) {
    for (const rec of ws.all(coll)) {
      if ((rec as { job_id?: unknown }).job_id === id) {
        ws.delete(coll, rec.id);
      }
    }
  }
}
