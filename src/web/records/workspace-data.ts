import type { ServiceContext } from '../../platform/service-context';
import { FAMILIES } from '../../resources';
import type { Job } from '../../resources/jobs/schema';
import type { Stage } from '../../resources/pipelines/schema';
import { listPipelines, stagesOf } from '../../resources/pipelines/service';
import type { WorkspaceCollections } from '../../store';
import type { Name } from '../../store/collections';
import { contactName, money, text, when } from './parts';

// What a workspace's page shows: its boards, and the newest records of each kind with how many
// the API shows, read in one pass over each collection of this workspace only.

/** How many of each kind of record the page lists, newest first. */
export const NEWEST = 20;
/** How many jobs each column of a board lists. */
export const PER_STAGE = 5;

type Coll = Name<WorkspaceCollections>;

export interface Row {
  href: string;
  label: string;
  detail: string;
  at: string;
}

export interface Section {
  id: string;
  title: string;
  rows: Row[];
  total: number;
}

/** Whether the API shows the record: the family's own rule (deleted, on a deleted job, ...). */
function visibility<K extends Coll>(
  coll: K,
): (ctx: ServiceContext, rec: WorkspaceCollections[K]) => boolean {
  const records = FAMILIES.find((f) => f.records?.coll === coll)?.records;
  return records ? (ctx, rec) => records.visible(ctx, rec as never) : () => true;
}

function section<K extends Coll>(
  ctx: ServiceContext,
  spec: { id: string; title: string; coll: K; row: (rec: WorkspaceCollections[K]) => Row },
): Section {
  const visible = visibility(spec.coll);
  let total = 0;
  for (const rec of ctx.ws.values(spec.coll)) {
    if (visible(ctx, rec)) {
      total += 1;
    }
  }
  const rows = ctx.ws
    .scan(spec.coll, { where: (rec) => visible(ctx, rec), limit: NEWEST })
    .items.map(spec.row);
  return { id: spec.id, title: spec.title, rows, total };
}

const jobLabel = (j: Job) => `${j.job_number} ${j.name ?? j.address}`;

export function sections(ctx: ServiceContext): Section[] {
  const jobName = (id: string | null) => {
    const job = id === null ? undefined : ctx.ws.get('jobs', id);
    return job ? jobLabel(job) : '';
  };
  return [
    section(ctx, {
      id: 'jobs',
      title: 'Jobs',
      coll: 'jobs',
      row: (j) => ({
        href: `/jobs/${j.id}`,
        label: jobLabel(j),
        detail: j.job_type,
        at: j.created_at,
      }),
    }),
    section(ctx, {
      id: 'contacts',
      title: 'Contacts',
      coll: 'contacts',
      row: (c) => ({
        href: `/contacts/${c.id}`,
        label: contactName(c),
        detail: c.type,
        at: c.created_at,
      }),
    }),
    section(ctx, {
      id: 'tasks',
      title: 'Tasks and appointments',
      coll: 'tasks',
      row: (t) => ({
        href: `/tasks/${t.id}`,
        label: text(t.title),
        detail: `${t.appointment_type ?? 'task'}${t.completed ? ', done' : ''} · due ${text(t.due_date)}`,
        at: t.created_at,
      }),
    }),
    section(ctx, {
      id: 'estimates',
      title: 'Estimates',
      coll: 'estimates',
      row: (e) => ({
        href: `/estimates/${e.id}`,
        label: `${text(e.estimate_number)} ${e.title ?? ''}`.trim(),
        detail: `${e.status} · ${jobName(e.job_id)}`,
        at: e.created_at,
      }),
    }),
    section(ctx, {
      id: 'invoices',
      title: 'Invoices',
      coll: 'invoices',
      row: (i) => ({
        href: `/invoices/${i.id}`,
        label: text(i.invoice_number),
        detail: `${i.status} · ${money(i.total_amount)} · ${jobName(i.job_id)}`,
        at: i.created_at,
      }),
    }),
    section(ctx, {
      id: 'payments',
      title: 'Payments',
      coll: 'payments',
      row: (p) => ({
        href: `/payments/${p.id}`,
        label: money(p.amount),
        detail: `${p.is_refund ? 'refund' : p.payment_method} · ${p.status} · ${jobName(p.job_id)}`,
        at: p.created_at,
      }),
    }),
    section(ctx, {
      id: 'pins',
      title: 'Pins',
      coll: 'pins',
      row: (p) => ({
        href: `/pins/${p.id}`,
        label: text(p.address),
        detail: p.knock_result ?? p.pin_type,
        at: p.created_at,
      }),
    }),
    section(ctx, {
      id: 'storm-lists',
      title: 'Storm lists',
      coll: 'storm_lists',
      row: (s) => ({
        href: `/storm_lists/${s.id}`,
        label: s.name,
        detail: `${s.status} · ${s.property_count} properties`,
        at: s.created_at,
      }),
    }),
  ];
}

/** The deleted jobs and contacts waiting out their 30 days: each page offers Restore. */
export function trash(ctx: ServiceContext): Row[] {
  const jobs = ctx.ws.scan('jobs', { where: (j) => j.deleted_at !== null, limit: NEWEST }).items;
  const contacts = ctx.ws.scan('contacts', {
    where: (c) => c.deleted_at !== null,
    limit: NEWEST,
  }).items;
  return [
    ...jobs.map((j) => ({
      href: `/jobs/${j.id}`,
      label: jobLabel(j),
      detail: `job, deleted ${when(j.deleted_at)}`,
      at: j.deleted_at ?? j.created_at,
    })),
    ...contacts.map((c) => ({
      href: `/contacts/${c.id}`,
      label: contactName(c),
      detail: `contact, deleted ${when(c.deleted_at)}`,
      at: c.deleted_at ?? c.created_at,
    })),
  ].sort((a, b) => (a.at < b.at ? 1 : -1));
}

export interface Column {
  stage: Stage;
  jobs: Job[];
  total: number;
}

/** Each board with its columns and the newest live, unarchived jobs in each: one pass over the jobs. */
export function boards(ctx: ServiceContext) {
  const byStage = new Map<string, Job[]>();
  for (const job of ctx.ws.values('jobs')) {
    if (job.deleted_at === null && !job.archived) {
      const list = byStage.get(job.stage_id) ?? [];
      list.push(job);
      byStage.set(job.stage_id, list);
    }
  }
  return listPipelines(ctx).map((pipeline) => ({
    pipeline,
    columns: stagesOf(ctx, pipeline.id).map((stage): Column => {
      const jobs = byStage.get(stage.id) ?? [];
      const newest = jobs
        .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0))
        .slice(0, PER_STAGE);
      return { stage, jobs: newest, total: jobs.length };
    }),
  }));
}
