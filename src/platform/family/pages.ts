import type { Hono } from 'hono';
import type { Child } from 'hono/jsx';
import type { WorkspaceCollections } from '../../store';
import type { Name, RecordOf } from '../../store/collections';
import type { AppEnv } from '../app-env';
import type { PageTokens } from '../http/page-tokens';
import type { Runtime } from '../runtime';
import type { ServiceContext } from '../service-context';

// What the web app shows of a family. src/web reads it from the registry, so a family's pages live
// in its own folder and appear in the web app through its one line there.

type Coll = Name<WorkspaceCollections>;
type RecordIn<K extends Coll> = RecordOf<WorkspaceCollections, K>;
type Job = WorkspaceCollections['jobs'];

/** What a family's pages are built with. */
export interface PageDeps {
  rt: Runtime;
  /** The anti-forgery tokens of the pages' forms (Restore, Sign, Pay). */
  tokens: PageTokens;
  /** What each family whose records hang off a job shows on its page, in the jobs family's order. */
  onJob: readonly OnJobPage[];
  /** What each shows on a homeowner's page of their project, in the same order. */
  onPortal: readonly OnPortal[];
}

/** A record as a list on a page names it: a link to its page, a line about it, and a date. */
export interface PageRow {
  href: string;
  label: string;
  detail: string;
  at: string;
}

/** A moment of a job's timeline: when, what happened, and where its record is shown. */
export interface Moment {
  at: string;
  what: string;
  href?: string;
}

/** A family's section of a workspace's page, and its tab. */
export interface WorkspaceSection {
  id: string;
  title: string;
  /** The section itself: the family draws it... */
  draw?(ctx: ServiceContext): Child;
  /** ...or the page lists the newest of its records, one row each. */
  list?: WorkspaceList;
}

export interface WorkspaceList {
  coll: Coll;
  /** A record's row; `ctx` is its workspace. */
  row(ctx: ServiceContext): (rec: never) => PageRow;
}

/** A list of a family's records on a workspace's page, each record drawn as a row. */
export function listOf<K extends Coll>(
  coll: K,
  row: (ctx: ServiceContext) => (rec: RecordIn<K>) => PageRow,
): WorkspaceList {
  return { coll, row };
}

/** What a family whose records hang off a job shows on the job's page. */
export interface OnJobPage {
  /** Under a heading of `title` in the job's money section, or in a section (and tab) of its own. */
  place: 'money' | 'own';
  /** Its section's anchor, when it has its own. */
  id: string;
  title: string;
  /** The label of its section's tab, when shorter than the title. */
  tab?: string;
  /** Its records on the job: what the page shows of them, and the moments of the job's timeline. */
  show(ctx: ServiceContext, job: Job): { part: Child; moments: Moment[] };
}

/** What a family shows on a homeowner's page of their project (a job's `portal_url`). */
export interface OnPortal {
  draw(ctx: ServiceContext, job: Job): Child;
}

export interface FamilyPages {
  /** Its pages at {app_url}: where a record's `url` opens, a homeowner's page, a PDF. */
  routes?(deps: PageDeps): Hono<AppEnv>;
  /** Its section of a workspace's page. */
  workspace?: WorkspaceSection;
  onJob?: OnJobPage;
  onPortal?: OnPortal;
}
