import type { ServiceContext } from '../platform/context';
import { presentContact } from '../resources/contacts/service';
import { presentEstimate } from '../resources/estimates/present';
import { presentFile } from '../resources/files/present';
import { presentInvoice } from '../resources/invoices/present';
import { presentJob } from '../resources/jobs/present';
import { jobIsLive } from '../resources/jobs/visibility';
import { presentNote } from '../resources/notes/service';
import { presentPayment } from '../resources/payments/present';
import { isReceived } from '../resources/payments/schema';
import { presentTask, taskIsVisible } from '../resources/tasks/service';
import type { Rec, WorkspaceCollections } from '../store';
import type { Name, RecordOf } from '../store/collections';
import type { Resource } from './catalogue';

// spec, Events: "The event is raised from the data change itself". Each collection that raises
// events says here, from the record before and after a committed change, which events the change
// is. Nothing else raises an event, so the API, the app-side actions of /__admin, the clock and
// the seeder all raise the same ones.

export type Body = Record<string, unknown>;

export interface Occurrence {
  event: string;
  recordId: string;
  /** What the delivery carries: the record as GET returns it, or a deleted snapshot. */
  record: Body;
  /** The extra fields of this event (previous_stage, previous_assigned_to_id, ...). */
  extra: Body;
  /** What filters read: the record as GET returns it (as it was, for a deletion) and the extras. */
  match: Body;
  /** `*.updated`: the public fields that changed. These coalesce before they are sent. */
  changed?: string[];
}

type Coll = Name<WorkspaceCollections>;

export interface Source<K extends Coll = Coll> {
  coll: K;
  resource: Resource;
  present(ctx: ServiceContext, rec: RecordOf<WorkspaceCollections, K>): Body;
  /** False while the record is out of the API's sight (deleted, or on a deleted job). */
  live(ctx: ServiceContext, rec: RecordOf<WorkspaceCollections, K>): boolean;
  derive(
    ctx: ServiceContext,
    before: RecordOf<WorkspaceCollections, K> | undefined,
    after: RecordOf<WorkspaceCollections, K> | undefined,
  ): Occurrence[];
}

/** The public fields whose values differ, `updated_at` aside (it changes with every edit). */
export function changedFields(before: Body, after: Body): string[] {
  const out: string[] = [];
  for (const key of Object.keys(after)) {
    if (key !== 'updated_at' && JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
      out.push(key);
    }
  }
  return out;
}

const occurrence = (event: string, record: Body, extra: Body = {}, match = record): Occurrence => ({
  event,
  recordId: String(record.id),
  record,
  extra,
  match: { ...match, ...extra },
});

/** spec, Delivery body: the identifying fields a `*.deleted` delivery carries. */
export const DELETED_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'job.deleted': ['job_number', 'name', 'address'],
  'contact.deleted': ['first_name', 'last_name', 'email', 'phone'],
  'task.deleted': ['title', 'job_id'],
};

const snapshot = (record: Body, fields: readonly string[]): Body => ({
  id: record.id,
  object: record.object,
  deleted: true,
  ...Object.fromEntries(fields.map((f) => [f, record[f] ?? null])),
});

interface Lifecycle {
  created?: string;
  updated?: string;
  deleted?: string;
}

/**
 * Created, updated and deleted as the API sees them: a record coming into sight (made, or
 * restored) is created; going out of sight (deleted, or into the recoverable area) is deleted.
 */
function lifecycle<K extends Coll>(
  source: Pick<Source<K>, 'present' | 'live'>,
  names: Lifecycle,
  more?: (ctx: ServiceContext, before: Body | undefined, after: Body | undefined) => Occurrence[],
): Source<K>['derive'] {
  return (ctx, before, after) => {
    const was =
      before !== undefined && source.live(ctx, before) ? source.present(ctx, before) : undefined;
    const now =
      after !== undefined && source.live(ctx, after) ? source.present(ctx, after) : undefined;
    const out: Occurrence[] = [];
    if (now && !was && names.created) {
      out.push(occurrence(names.created, now));
    } else if (was && !now && names.deleted) {
      out.push(
        occurrence(names.deleted, snapshot(was, DELETED_FIELDS[names.deleted] ?? []), {}, was),
      );
    } else if (was && now && names.updated) {
      const changed = changedFields(was, now);
      if (changed.length > 0) {
        out.push({ ...occurrence(names.updated, now), changed });
      }
    }
    return [...out, ...(more?.(ctx, was, now) ?? [])];
  };
}

const jobPresent: Source<'jobs'>['present'] = presentJob;
const jobLive: Source<'jobs'>['live'] = (_ctx, job) => job.deleted_at === null;

const jobs: Source<'jobs'> = {
  coll: 'jobs',
  resource: 'job',
  present: jobPresent,
  live: jobLive,
  derive: lifecycle(
    { present: jobPresent, live: jobLive },
    {
      created: 'job.created',
      updated: 'job.updated',
      deleted: 'job.deleted',
    },
    (_ctx, was, now) => {
      const out: Occurrence[] = [];
      if (!was || !now) {
        return out;
      }
      if (was.stage !== now.stage || was.pipeline_id !== now.pipeline_id) {
        out.push(
          occurrence('job.stage_changed', now, {
            previous_stage: was.stage,
            previous_stage_label: was.stage_label,
          }),
        );
      }
      // A new primary assignee; clearing the assignee assigns nobody.
      if (now.assigned_to_id !== null && was.assigned_to_id !== now.assigned_to_id) {
        out.push(occurrence('job.assigned', now, { previous_assigned_to_id: was.assigned_to_id }));
      }
      return out;
    },
  ),
};

const contactPresent: Source<'contacts'>['present'] = presentContact;
const contactLive: Source<'contacts'>['live'] = (_ctx, c) => c.deleted_at === null;

const contacts: Source<'contacts'> = {
  coll: 'contacts',
  resource: 'contact',
  present: contactPresent,
  live: contactLive,
  derive: lifecycle(
    { present: contactPresent, live: contactLive },
    {
      created: 'contact.created',
      updated: 'contact.updated',
      deleted: 'contact.deleted',
    },
  ),
};

const taskPresent: Source<'tasks'>['present'] = presentTask;
// A task gone with its deleted job (or, on no job, its contact) left the API: its purge is no
// news. The API's own rule decides, so events and reads never disagree.
const taskLive: Source<'tasks'>['live'] = taskIsVisible;

const tasks: Source<'tasks'> = {
  coll: 'tasks',
  resource: 'task',
  present: taskPresent,
  live: taskLive,
  derive: lifecycle(
    { present: taskPresent, live: taskLive },
    {
      created: 'task.created',
      updated: 'task.updated',
      deleted: 'task.deleted',
    },
    (_ctx, was, now) => {
      const out: Occurrence[] = [];
      // decisions.md: an appointment is scheduled when a task becomes one, at creation or later.
      if (now?.is_appointment === true && was?.is_appointment !== true) {
        out.push(occurrence('appointment.created', now));
      }
      if (was && now && now.completed === true && was.completed !== true) {
        out.push(occurrence('task.completed', now));
      }
      return out;
    },
  ),
};

const notes: Source<'notes'> = {
  coll: 'notes',
  resource: 'note',
  present: presentNote,
  live: (ctx, n) => jobIsLive(ctx, n.job_id),
  derive: (ctx, before, after) =>
    before === undefined && after !== undefined && jobIsLive(ctx, after.job_id)
      ? [occurrence('note.created', presentNote(ctx, after))]
      : [],
};

// The money and file resources land with later issues; their records already raise the events
// a change to them plainly is. Status moves (sent, viewed, paid, ...) come with their services.
const created =
  <K extends Coll>(event: string, present: Source<K>['present']): Source<K>['derive'] =>
  (ctx, before, after) =>
    before === undefined && after !== undefined ? [occurrence(event, present(ctx, after))] : [];

/** A record on a job that raises one event when it is made. */
function madeOnJob<K extends 'estimates' | 'invoices' | 'files'>(
  coll: K,
  resource: Resource,
  event: string,
  present: Source<K>['present'],
): Source<K> {
  return {
    coll,
    resource,
    present,
    live: (ctx, rec) => jobIsLive(ctx, rec.job_id),
    derive: created(event, present),
  };
}

const estimates = madeOnJob('estimates', 'estimate', 'estimate.created', presentEstimate);
const invoices = madeOnJob('invoices', 'invoice', 'invoice.created', presentInvoice);
const files = madeOnJob('files', 'file', 'file.created', presentFile);

const payments: Source<'payments'> = {
  coll: 'payments',
  resource: 'payment',
  present: presentPayment,
  live: (ctx, p) => jobIsLive(ctx, p.job_id),
  // Recorded as received, or an expected payment coming in.
  derive: (ctx, before, after) =>
    after !== undefined && isReceived(after) && (before === undefined || !isReceived(before))
      ? [occurrence('payment.received', presentPayment(ctx, after))]
      : [],
};

/** A source as the outbox sees it: it is only ever handed records of its own collection. */
export interface AnySource {
  coll: Coll;
  resource: Resource;
  present(ctx: ServiceContext, rec: Rec): Body;
  live(ctx: ServiceContext, rec: Rec): boolean;
  derive(ctx: ServiceContext, before: Rec | undefined, after: Rec | undefined): Occurrence[];
}

const SOURCES = [
  jobs,
  contacts,
  tasks,
  notes,
  estimates,
  invoices,
  files,
  payments,
] as unknown as AnySource[];

const byColl = new Map<string, AnySource>(SOURCES.map((s) => [s.coll, s]));
const byResource = new Map<Resource, AnySource>(SOURCES.map((s) => [s.resource, s]));

export const sourceOf = (coll: string): AnySource | undefined => byColl.get(coll);
export const sourceFor = (resource: Resource): AnySource | undefined => byResource.get(resource);

/** The extra fields each event carries, empty: what a sample or a test send shows. */
export const EMPTY_EXTRAS: Readonly<Record<string, Body>> = {
  'job.updated': { changed_fields: [] },
  'job.stage_changed': { previous_stage: null, previous_stage_label: null },
  'job.assigned': { previous_assigned_to_id: null },
  'contact.updated': { changed_fields: [] },
  'task.updated': { changed_fields: [] },
  'pin.result_changed': { previous_knock_result: null },
};

export const deletedSnapshot = (event: string, record: Body): Body | undefined => {
  const fields = DELETED_FIELDS[event];
  return fields && snapshot(record, fields);
};
