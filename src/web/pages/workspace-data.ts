import type { Child } from 'hono/jsx';
import type { Family, PageRow, WorkspaceList } from '../../platform/family';
import type { ServiceContext } from '../../platform/service-context';
import { FAMILIES } from '../../resources';
import type { Rec, WorkspaceCollections } from '../../store';
import type { Name } from '../../store/collections';
import { when } from '../ui/parts';

// What a workspace's page shows: each family's section (Family.pages.workspace), in the
// registry's order: one it draws itself (the boards), or the newest of its records with how many
// the API shows, read in one pass over each collection of this workspace only. Then the trash.

/** How many of each kind of record the page lists, newest first. */
export const NEWEST = 20;

type Coll = Name<WorkspaceCollections>;

export interface Section {
  id: string;
  title: string;
  /** What the family drew, or its records listed. */
  drawn?: Child;
  rows: PageRow[];
  total: number;
}

/** Whether the API shows the record: the family's own rule (deleted, on a deleted job, ...). */
function visibility(family: Family): (ctx: ServiceContext, rec: Rec) => boolean {
  const records = family.records;
  return records ? (ctx, rec) => records.visible(ctx, rec as never) : () => true;
}

function listed(ctx: ServiceContext, family: Family, list: WorkspaceList) {
  const visible = visibility(family);
  const coll: Coll = list.coll;
  let total = 0;
  for (const rec of ctx.ws.values(coll)) {
    if (visible(ctx, rec)) {
      total += 1;
    }
  }
  const row = list.row(ctx) as (rec: Rec) => PageRow;
  const rows = ctx.ws
    .scan(coll, { where: (rec) => visible(ctx, rec), limit: NEWEST })
    .items.map((rec) => row(rec));
  return { rows, total };
}

export function sections(ctx: ServiceContext): Section[] {
  return FAMILIES.flatMap((family) => {
    const section = family.pages?.workspace;
    if (!section) {
      return [];
    }
    const { id, title } = section;
    if (section.list) {
      return [{ id, title, ...listed(ctx, family, section.list) }];
    }
    return [{ id, title, drawn: section.draw?.(ctx), rows: [], total: 0 }];
  });
}

/** The deleted records waiting out their 30 days (jobs and contacts): each page offers Restore. */
export function trash(ctx: ServiceContext): PageRow[] {
  return FAMILIES.flatMap((family) => {
    const list = family.pages?.workspace?.list;
    const noun = family.recoverable?.noun;
    if (!list || !noun) {
      return [];
    }
    const row = list.row(ctx) as (rec: Rec) => PageRow;
    const deletedAt = (rec: Rec) => (rec as { deleted_at?: string | null }).deleted_at ?? null;
    return ctx.ws
      .scan(list.coll, { where: (rec) => deletedAt(rec) !== null, limit: NEWEST })
      .items.map((rec) => {
        const shown = row(rec);
        const at = deletedAt(rec);
        return { ...shown, detail: `${noun}, deleted ${when(at)}`, at: at ?? shown.at };
      });
  }).sort((a, b) => (a.at < b.at ? 1 : -1));
}
