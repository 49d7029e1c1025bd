import type { OnJobPage } from '../../../platform/family';
import type { ServiceContext } from '../../../platform/service-context';
import { contactName } from '../../contacts/api';
import type { Stage } from '../../pipelines/api';
import { stagesOf } from '../../pipelines/api';
import { presentJob } from '../present';
import type { Job } from '../schema';
import { timelineOf } from './timeline';

// What a job's page shows: the job through its own presenter (the same figures GET /v1 answers),
// and what each family whose records hang off it shows of them (PageDeps.onJob), each list a scan
// of the job's workspace only.

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

export function jobView(ctx: ServiceContext, job: Job, onJob: readonly OnJobPage[]) {
  const stage = ctx.ws.get('stages', job.stage_id);
  const stages: Stage[] = stage ? stagesOf(ctx, stage.pipeline_id) : [];
  // Each family's part of the page, with the moments its records add to the timeline.
  const shown = onJob.map((on) => ({ on, ...on.show(ctx, job) }));
  return {
    job,
    out: presentJob(ctx, job),
    stages,
    people: people(ctx, job),
    parts: shown,
    timeline: timelineOf(
      ctx,
      job,
      shown.flatMap((s) => s.moments),
    ),
  };
}

export type JobView = ReturnType<typeof jobView>;
