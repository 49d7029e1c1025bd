import type { Faker } from '@faker-js/faker';
import type { WorkspaceCollections } from '../../store';
import type { Name, RecordOf } from '../../store/collections';

// The words a family's seeding is written in: svc's seeder makes a workspace family by family,
// in the registry's order, then the records on each job, and every step reads what the steps
// before it made.

export const PROFILES = ['empty', 'small', 'demo', 'large'] as const;
export type Profile = (typeof PROFILES)[number];

/** A day in milliseconds: seeded times are spread over days. */
export const DAY = 24 * 60 * 60 * 1000;
/** A seeded instant as the store keeps it. */
export const iso = (ms: number) => new Date(ms).toISOString();

/** Where the workspace works: the city at the centre of its market. */
export interface Market {
  city: string;
  state: string;
  postal_code: string;
  latitude: number;
  longitude: number;
}

export interface Place {
  address: string;
  city: string;
  state: string;
  postal_code: string;
}

type Coll = Name<WorkspaceCollections>;
type RecordIn<K extends Coll> = RecordOf<WorkspaceCollections, K>;
type Job = RecordIn<'jobs' & Coll>;

/** A workspace being made: what every step reads, and where it puts what it makes. */
export interface Seeding {
  readonly faker: Faker;
  readonly profile: Profile;
  readonly market: Market;
  /** The workspace's email domain (example.com below it). */
  readonly domain: string;
  /** When the workspace was made, and the instant every timestamp falls before (ms). */
  readonly since: number;
  readonly until: number;
  /** The jobs that show every flow (the first of each board): the steps on a job fill them. */
  readonly showcase: Set<string>;
  /** A moment from `from` to `to` (an hour before the horizon unless given), leaning recent. */
  when(from: number, to?: number): number;
  /** A whole number that averages `mean`. */
  count(mean: number): number;
  /** A street address near the market. */
  place(): Place;
  add<K extends Coll>(coll: K, ...records: RecordIn<K>[]): void;
  /** What the steps so far have made of `coll`. */
  all<K extends Coll>(coll: K): readonly RecordIn<K>[];
}

/** How a family seeds a new workspace. */
export interface SeedStep {
  /** Its records of the whole workspace, after the families before it in the registry. */
  workspace?(s: Seeding): void;
  /** Its records on one job, once every family's workspace step has run. */
  job?(s: Seeding, job: Job): void;
  /** Once every job's records are made (numbering them in creation order). */
  finish?(s: Seeding): void;
}
