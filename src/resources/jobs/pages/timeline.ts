import type { Moment } from '../../../platform/family';
import type { ServiceContext } from '../../../platform/service-context';
import type { Job } from '../schema';

// A job's timeline, newest first. svc keeps no history of a record beside its current state, so
// it is put together from what is kept: the job's stage moves (the `timeline` collection the jobs
// service writes), the dates on the job and on the records on it (each family gives its own), and the events svc raised about
// the job (kept while a subscription heard them), which name the fields each change moved.

/** The newest this many moments are shown. */
export const TIMELINE_CAP = 100;

const EVENT_CAP = 50;

function stageMoves(ctx: ServiceContext, job: Job): Moment[] {
  const label = (id: string | null) =>
    (id === null ? undefined : ctx.ws.get('stages', id)?.label) ?? 'none';
  return ctx.ws
    .scan('timeline', { where: (t) => t.job_id === job.id, limit: TIMELINE_CAP })
    .items.map((t) => ({
      at: t.created_at,
      what: `Stage moved from ${label(t.from_stage_id)} to ${label(t.to_stage_id)}`,
    }));
}

function changedFields(body: string): string[] {
  try {
    const parsed = JSON.parse(body) as { changed_fields?: unknown };
    return Array.isArray(parsed.changed_fields) ? parsed.changed_fields.map(String) : [];
  } catch {
    return [];
  }
}

function events(ctx: ServiceContext, job: Job): Moment[] {
  return ctx.ws
    .scan('webhook_events', { where: (e) => e.record_id === job.id, limit: EVENT_CAP })
    .items.filter((e) => e.event !== 'job.created' && e.event !== 'job.stage_changed')
    .map((e) => {
      const fields = changedFields(e.body);
      return { at: e.event_at, what: fields.length ? `${e.event}: ${fields.join(', ')}` : e.event };
    });
}

function ownDates(job: Job): Moment[] {
  const out: Moment[] = [{ at: job.created_at, what: `Job ${job.job_number} created` }];
  if (job.completed_at) {
    out.push({ at: job.completed_at, what: 'Completed' });
  }
  if (job.lost_at) {
    out.push({ at: job.lost_at, what: job.lost_reason ? `Lost: ${job.lost_reason}` : 'Lost' });
  }
  if (job.deleted_at) {
    out.push({ at: job.deleted_at, what: 'Deleted', href: '#deleted' });
  }
  return out;
}

/** `onJob`: the moments of the records on the job, from the families they belong to. */
export function timelineOf(ctx: ServiceContext, job: Job, onJob: readonly Moment[]): Moment[] {
  return [...ownDates(job), ...stageMoves(ctx, job), ...events(ctx, job), ...onJob]
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(0, TIMELINE_CAP);
}
