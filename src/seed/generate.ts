// The faker half of seeding, loaded only when a workspace is generated: a start on an existing
// data file never pays for faker, the ZIP table or the families' seed steps.
import { faker } from '@faker-js/faker/locale/en_US';
import zipcodes from 'zipcodes';
import type { Workspace } from '../platform/auth';
import {
  DAY,
  type Market,
  type Place,
  type Profile,
  type Seeding,
  type SeedStep,
} from '../platform/family';
import { FAMILIES, jobChildren } from '../resources';
import type { WorkspaceCollections } from '../store';
import type { Name, RecordOf } from '../store/collections';
import { COMPANY_LEADS, COMPANY_TRADES, MARKETS } from './vocabulary';

export interface GenerateOptions {
  profile: Profile;
  seed: number;
  /** Timestamps fall before this instant (ms). */
  anchorMs: number;
  name?: string | undefined;
  subscriptionActive?: boolean | undefined;
}

/** The records of each collection, in the order the steps made them. */
export type GeneratedRecords = {
  [K in Name<WorkspaceCollections>]?: RecordOf<WorkspaceCollections, K>[];
};

/** A whole workspace as plain records. */
export interface Generated {
  workspace: Workspace & { market: Market };
  collections: GeneratedRecords;
}

/**
 * A whole workspace; the same options give the same records. The workspace and where it works
 * are drawn here; then each family of the registry seeds its records, in the registry's order,
 * and then the records on each job, in the order the jobs family gives its children.
 */
export async function generateWorkspace(opts: GenerateOptions): Promise<Generated> {
  const steps = await loadSteps();
  faker.seed(opts.seed);
  faker.setDefaultRefDate(new Date(opts.anchorMs));
  const createdMs = opts.anchorMs - faker.number.int({ min: 400, max: 900 }) * DAY;
  const created = new Date(createdMs).toISOString();

  const marketDef = faker.helpers.arrayElement(MARKETS);
  const found = zipcodes.lookup(marketDef.zip);
  const market: Market = {
    city: found?.city ?? 'Dallas',
    state: found?.state ?? 'TX',
    postal_code: marketDef.zip,
    latitude: found?.latitude ?? 32.79,
    longitude: found?.longitude ?? -96.8,
  };
  const companyName =
    opts.name ??
    `${faker.helpers.arrayElement(COMPANY_LEADS)} ${faker.helpers.arrayElement(COMPANY_TRADES)}`;
  const workspace = {
    id: faker.string.uuid(),
    object: 'workspace' as const,
    name: companyName,
    subscription_active: opts.subscriptionActive ?? true,
    timezone: marketDef.timezone,
    market,
    created_at: created,
    updated_at: created,
  };
  const domain = `${companyName.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example.com`;
  const seeding = new WorkspaceSeeding(opts.profile, market, domain, createdMs, opts.anchorMs);
  for (const step of steps.workspace) {
    step.workspace?.(seeding);
  }
  for (const job of seeding.all('jobs')) {
    for (const step of steps.job) {
      step.job?.(seeding, job);
    }
  }
  for (const step of steps.workspace) {
    step.finish?.(seeding);
  }
  return { workspace, collections: seeding.collections };
}

/** The families' seed steps, in the registry's order, and those on a job in theirs. */
async function loadSteps(): Promise<{ workspace: SeedStep[]; job: SeedStep[] }> {
  const load = async (families: readonly { seed?(): Promise<SeedStep> }[]) =>
    (await Promise.all(families.map((f) => f.seed?.()))).filter(
      (step): step is SeedStep => step !== undefined,
    );
  return { workspace: await load(FAMILIES), job: await load(jobChildren()) };
}

class WorkspaceSeeding implements Seeding {
  readonly faker = faker;
  readonly showcase = new Set<string>();
  readonly collections: GeneratedRecords = {};
  readonly #zips: string[];

  constructor(
    readonly profile: Profile,
    readonly market: Market,
    readonly domain: string,
    readonly since: number,
    readonly until: number,
  ) {
    const near = zipcodes.radius(market.postal_code, 40) as string[];
    this.#zips = near.length > 0 ? near.sort() : [market.postal_code];
  }

  when(from: number, to = this.until - DAY / 24): number {
    const span = Math.max(to - from, 1);
    return Math.floor(from + span * Math.sqrt(faker.number.float({ min: 0, max: 1 })));
  }

  count(mean: number): number {
    const whole = Math.floor(mean);
    return whole + (faker.number.float({ min: 0, max: 1 }) < mean - whole ? 1 : 0);
  }

  place(): Place {
    const zip = faker.helpers.arrayElement(this.#zips);
    const found = zipcodes.lookup(zip);
    return {
      address: faker.location.streetAddress(),
      city: found?.city ?? this.market.city,
      state: found?.state ?? this.market.state,
      postal_code: zip,
    };
  }

  add<K extends Name<WorkspaceCollections>>(
    coll: K,
    ...records: RecordOf<WorkspaceCollections, K>[]
  ): void {
    // A collection's list holds its own records: what `coll` names is what `records` are.
    const lists = this.collections as Record<string, unknown[]>;
    const list = lists[coll] ?? [];
    for (const rec of records) {
      list.push(rec);
    }
    lists[coll] = list;
  }

  all<K extends Name<WorkspaceCollections>>(coll: K): readonly RecordOf<WorkspaceCollections, K>[] {
    return this.collections[coll] ?? [];
  }
}
