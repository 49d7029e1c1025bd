import type { OpenAPIHono, z } from '@hono/zod-openapi';
import type { Hono } from 'hono';
import type { Position, TxScope, WorkspaceCollections } from '../../store';
import type { Name, RecordOf } from '../../store/collections';
import type { AppEnv } from '../app-env';
import type { Config } from '../config';
import type { Cursors } from '../paging/cursors';
import type { ListQuery } from '../paging/query';
import type { Runtime } from '../runtime';
import type { ServiceContext } from '../service-context';
import type { Body, EventDecl, Events, FilterDef } from './events';
import type { FamilyPages } from './pages';
import type { SeedStep } from './seed';
import { ShownJson } from './shown-json';

export * from './events';
export * from './pages';
export * from './seed';
export { shape } from './shape';

// A resource family is one folder of src/resources; its index.ts exports one Family, and the
// registry (src/resources/index.ts) lists them. The API router, the event deriver and catalogue,
// samples, recoverable deletion, the job sub-lists and the seeder read the registry, so a new
// family is its folder plus one line there.

type Coll = Name<WorkspaceCollections>;
type RecordIn<K extends Coll> = RecordOf<WorkspaceCollections, K>;

/** A record of some family, as the change feed and the registry hand it over. */
export type AnyRecord = RecordIn<Coll>;

/** An event of the catalogue: its declaration and the family whose records it carries. */
export interface EventDef extends EventDecl {
  resource: string;
  filters: readonly FilterDef[];
  /** The event's own fields at their defaults: what a sample or a test send carries. */
  empty: Body;
}

/** The event catalogue, as routes see it (built from the registry by src/events). */
export interface EventCatalogue {
  readonly all: readonly EventDef[];
  find(name: string): EventDef | undefined;
  /** spec, GET /webhooks/samples/{event}: up to `limit` recent records, as deliveries of it. */
  samples(ctx: ServiceContext, def: EventDef, limit: number): Body[];
  /** A delivery body of any event, for the document (each event's is a schema of its own). */
  bodies: z.ZodType;
}

/** What a family's routes are built with. */
export interface RouteDeps extends Pick<Runtime, 'files' | 'limiter' | 'store'> {
  config: Config;
  cursors: Cursors;
  events: EventCatalogue;
  /** The lists of records on a job (`/jobs/{id}/<path>`), in the order the jobs family gives. */
  jobLists: readonly SubListOf[];
  /** The lists of records that name a contact (`/contacts/{id}/<path>`), in registry order. */
  contactLists: readonly SubListOf[];
}

/**
 * A function of one record. Declared as a method's type so that it is bivariant in the record:
 * the registry holds every family's records as records of any collection, and each family is
 * only ever handed its own.
 */
type Of<R, T> = { of(rec: R): T }['of'];

/** A family's records: their collection, how the API shows them and which ones it sees. */
export interface Records<K extends Coll = Coll, Out = Body> {
  coll: K;
  /** The shape GET returns, for the document (a delivery of its events carries it too). */
  schema: z.ZodObject;
  /** A record as GET returns it; deliveries and samples carry the same. */
  present(ctx: ServiceContext, rec: RecordIn<K>): Out;
  /** `present` for the records of one answer, when reading them together costs less. */
  presentAll(ctx: ServiceContext): Of<RecordIn<K>, Out>;
  /** Whether the API sees the record (not deleted, not on a deleted job, ...). */
  visible(ctx: ServiceContext, rec: RecordIn<K>): boolean;
  /** A record's JSON as GET answers it, in UTF-8: made once, again when what it shows moves. */
  json(ctx: ServiceContext, rec: RecordIn<K>): Buffer<ArrayBuffer>;
  /** `json` for the records of one answer. */
  jsons(ctx: ServiceContext): Of<RecordIn<K>, Buffer<ArrayBuffer>>;
}

/**
 * A family's records. `reads` names every collection its presentation looks at besides its own:
 * the kept JSON text of a record is made again once any of them changes.
 */
export function defineRecords<K extends Coll, Out>(spec: {
  coll: K;
  schema: z.ZodObject;
  present(ctx: ServiceContext, rec: RecordIn<K>): Out;
  presentAll?(ctx: ServiceContext): Of<RecordIn<K>, Out>;
  visible(ctx: ServiceContext, rec: RecordIn<K>): boolean;
  reads: readonly Coll[];
  /**
   * When what a record shows moves with the clock too (a link that expires), the span its text
   * holds for: the texts kept are made afresh once this answers another value.
   */
  keptFor?(ctx: ServiceContext): number;
}): Records<K, Out> {
  let kept = new ShownJson<RecordIn<K>>(spec.reads);
  let span: number | undefined;
  const keptNow = (ctx: ServiceContext) => {
    const now = spec.keptFor?.(ctx);
    if (now !== span) {
      span = now;
      kept = new ShownJson<RecordIn<K>>(spec.reads);
    }
    return kept;
  };
  const presentAll = spec.presentAll ?? ((ctx) => (rec) => spec.present(ctx, rec));
  return {
    coll: spec.coll,
    schema: spec.schema,
    present: spec.present,
    presentAll,
    visible: spec.visible,
    json: (ctx, rec) => keptNow(ctx).json(ctx, rec, () => spec.present(ctx, rec)),
    jsons: (ctx) => keptNow(ctx).jsons(ctx, presentAll(ctx)),
  };
}

/** A page of records, newest first, after a position (see ScopedStore.scan). */
export interface Page<R> {
  items: R[];
  hasMore: boolean;
}

/**
 * A list of a family's records under one record of another family: GET /jobs/{id}/<path> (the
 * records on a job), GET /contacts/{id}/<path> (the records that name a contact).
 */
export interface SubList<K extends Coll = Coll> {
  path: string;
  summary: string;
  /** What its 200 answer is, for the document, when not the summary. */
  answers?: string;
  /** The list's schema, for the document. */
  schema: z.ZodType;
  /** Its query, when it takes more than the paging and time filters. */
  query?: z.ZodObject;
  /** `q`: the page size, the time filters and whatever else `query` takes. */
  scan(
    ctx: ServiceContext,
    ownerId: string,
    q: ListQuery & Record<string, unknown>,
    after: Position | undefined,
  ): Page<RecordIn<K>>;
}

/** A sub-list with the records it pages, as the registry hands it to the family it is under. */
export interface SubListOf extends SubList {
  records: Records<Coll, unknown>;
}

/** A family whose records (jobs, contacts) are kept 30 days in a recoverable area once deleted. */
export interface Recoverable {
  /** What a restore brings back, for the control API's summary: "job, with everything on it". */
  what: string;
  /** What a person calls one of its records: "job". */
  noun: string;
  /** The record as a restore answers it. */
  schema: z.ZodType;
  /**
   * Deletes a record for good, after its 30 days, with what goes with it. `onJob`: the
   * collections whose records hang off a job (a job's purge takes them along).
   */
  purge(ws: TxScope<WorkspaceCollections>, id: string, onJob: readonly Coll[]): void;
}

/**
 * Work that falls due on the clock for a record in some state (an estimate passing its
 * valid-until date, an invoice its due date). svc schedules it from every change to the record,
 * and when the clock reaches it, runs it once, in a transaction of the record's workspace, if the
 * record as then stored still falls due.
 */
export interface DueWork<K extends Coll = Coll> {
  coll: K;
  /** Names the work in the scheduler (with the record's id). */
  name: string;
  /** When it falls due for the record as stored (ms), or undefined when it does not. */
  at(rec: RecordIn<K>): number | undefined;
  run(ws: TxScope<WorkspaceCollections>, rec: RecordIn<K>, nowIso: string): void;
}

export interface Family {
  /** Its folder's name. */
  name: string;
  /** Its operations, mounted on /v1 in the registry's order. */
  routes?(deps: RouteDeps): OpenAPIHono<AppEnv>;
  records?: Records<Coll, unknown>;
  events?: Events;
  /** Records that hang off a job: they go with it (recoverable, purged), and list under it. */
  onJob?: { colls: readonly Coll[]; lists?: readonly SubList[] };
  /** Lists of its records that name a contact, under it: the jobs a person is on. */
  onContact?: { lists: readonly SubList[] };
  /** The jobs family: the order of the families whose records hang off a job (spec, Jobs). */
  children?: readonly string[];
  recoverable?: Recoverable;
  /** Work that falls due on the clock for its records. */
  due?: readonly DueWork[];
  /** Its app-side actions (DESIGN.md, control API), mounted on /__admin. */
  admin?(rt: Runtime): OpenAPIHono<AppEnv>;
  /** What the web app shows of it: its pages, its parts of a workspace's and a job's page. */
  pages?: FamilyPages;
  /**
   * Its links on the web app's origin (`{app_url}`, the server root, outside /v1 and /__admin)
   * that are not pages: what a file's `download_url` opens. No API key: each route decides who
   * may see what (a signed link, say).
   */
  links?(rt: Runtime): Hono<AppEnv>;
  /** How it seeds a workspace; loaded only when one is made (faker stays out of a start). */
  seed?(): Promise<SeedStep>;
}
