import type { ServiceContext } from '../../platform/service-context';
import type { Job } from '../../resources/jobs/schema';
import type { OnJobRecords } from './job-data';
import { money } from './parts';

// A job's timeline, newest first. svc keeps no history of a record beside its current state, so
// it is put together from what is kept: the job's stage moves (the `timeline` collection the jobs
// service writes), the dates on the job and on the records on it, and the events svc raised about
// the job (kept while a subscription heard them), which name the fields each change moved.

export interface Moment {
  at: string;
  what: string;
  /** Where the moment's record is shown (a note's anchor, a record's page). */
  href?: string;
}

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

function recordDates(recs: OnJobRecords): Moment[] {
  const out: Moment[] = [];
  const add = (at: string | null, what: string, href: string) => {
    if (at) {
      out.push({ at, what, href });
    }
  };
  for (const n of recs.notes.items) {
    add(n.created_at, 'Note added', `#note-${n.id}`);
  }
  for (const e of recs.estimates.items) {
    const name = `Estimate ${e.estimate_number ?? ''}`.trim();
    add(e.created_at, `${name} drafted`, `/estimates/${e.id}`);
    add(e.sent_at, `${name} sent for signature`, `/estimates/${e.id}`);
    add(e.signed_at, `${name} signed by ${e.signer_name ?? 'the homeowner'}`, `/estimates/${e.id}`);
  }
  for (const i of recs.invoices.items) {
    const name = `Invoice ${i.invoice_number ?? ''}`.trim();
    add(i.created_at, `${name} drafted`, `/invoices/${i.id}`);
    add(i.sent_at, `${name} sent`, `/invoices/${i.id}`);
    add(i.paid_at, `${name} paid`, `/invoices/${i.id}`);
  }
  for (const p of recs.payments.items) {
    const what = p.is_refund ? `Refund of ${money(-p.amount)}` : `Payment of ${money(p.amount)}`;
    add(p.created_at, `${what} recorded (${p.status})`, `/payments/${p.id}`);
  }
  for (const f of recs.files.items) {
    add(f.created_at, `File uploaded: ${f.name}`, `/files/${f.id}`);
  }
  for (const t of recs.tasks.items) {
    const kind = t.appointment_type ? 'Appointment' : 'Task';
    add(t.created_at, `${kind} added: ${t.title ?? 'untitled'}`, `/tasks/${t.id}`);
    add(t.completed_at, `${kind} completed: ${t.title ?? 'untitled'}`, `/tasks/${t.id}`);
  }
  return out;
}

export function timelineOf(ctx: ServiceContext, job: Job, recs: OnJobRecords): Moment[] {
  return [...ownDates(job), ...stageMoves(ctx, job), ...events(ctx, job), ...recordDates(recs)]
    .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0))
    .slice(0, TIMELINE_CAP);
}
