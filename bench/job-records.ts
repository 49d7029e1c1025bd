import { randomUUID } from 'node:crypto';
import type { Contact } from '../src/resources/contacts/schema';
import type { Job } from '../src/resources/jobs/schema';
import type { Rec, Tx } from '../src/store';

// Job-like records for the benchmarks: the fields the spec gives a job, with plausible values,
// padded by a free-text `notes` field to a chosen JSON size. A seeded generator (not faker)
// keeps them deterministic and cheap to make, so generating data never shows in a figure.

export type BenchJob = Readonly<{
  id: string;
  object: 'job';
  notes: string;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}>;

/** The 'jobs' collection has no resource (and so no typed name) yet: the benches name it here. */
export interface BenchCollections {
  jobs: BenchJob;
}

/** Puts one job into a workspace through the store's ordinary, typed transaction API. */
export function putJob(tx: Tx, workspaceId: string, job: BenchJob): void {
  tx.scope<BenchCollections>(workspaceId).put('jobs', job);
}

export interface SizeRange {
  min: number;
  max: number;
}

const FIRST = ['Maria', 'James', 'Linda', 'Robert', 'Patricia', 'Michael', 'Jennifer', 'David'];
const LAST = ['Garcia', 'Johnson', 'Nguyen', 'Miller', 'Davis', 'Martinez', 'Wilson', 'Anderson'];
const STREETS = ['Oak St', 'Maple Ave', 'Cedar Ln', 'Elm Dr', 'Pine Ct', 'Lakeview Rd', 'Hill St'];
const PLACES: readonly (readonly [string, string, string, string])[] = [
  ['Dallas', 'TX', '75201', 'Dallas'],
  ['Denver', 'CO', '80202', 'Denver'],
  ['Omaha', 'NE', '68102', 'Douglas'],
  ['Wichita', 'KS', '67202', 'Sedgwick'],
  ['Tulsa', 'OK', '74103', 'Tulsa'],
  ['Lincoln', 'NE', '68508', 'Lancaster'],
];
const WORDS = (
  'homeowner reports hail damage on the north slope adjuster meeting scheduled for ' +
  'thursday morning ridge cap and drip edge need replacing gutters dented on the east ' +
  'side supplement sent for ice and water shield crew arrives at eight please call first ' +
  'dog in the backyard materials delivered to the driveway permit approved by the county'
).split(' ');
const STAGES = ['lead', 'inspection', 'claim_filed', 'approved', 'production', 'invoiced'];
const INSURERS = ['State Farm', 'Allstate', 'USAA', 'Farmers', 'Liberty Mutual'];

/** mulberry32: a tiny seeded PRNG, good enough for fake data. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rand = () => number;

const pick = <T>(rand: Rand, list: readonly T[]): T => {
  const item = list[Math.floor(rand() * list.length)];
  if (item === undefined) {
    throw new Error('pick from an empty list');
  }
  return item;
};

const hex = (rand: Rand, n: number): string =>
  Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');

const uuid = (rand: Rand): string =>
  `${hex(rand, 8)}-${hex(rand, 4)}-4${hex(rand, 3)}-a${hex(rand, 3)}-${hex(rand, 12)}`;

const money = (rand: Rand, max: number): number => Math.round(rand() * max * 100) / 100;

function person(rand: Rand) {
  const name = `${pick(rand, FIRST)} ${pick(rand, LAST)}`;
  const email = `${name.toLowerCase().replace(' ', '.')}@example.com`;
  const phone = `+1555${String(Math.floor(rand() * 1e7)).padStart(7, '0')}`;
  return { id: uuid(rand), name, email, phone };
}

/** Free text of about `chars` characters. */
function words(rand: Rand, chars: number): string {
  const out: string[] = [];
  let length = 0;
  while (length < chars) {
    const word = pick(rand, WORDS);
    out.push(word);
    length += word.length + 1;
  }
  return out.join(' ').slice(0, Math.max(0, chars));
}

/** Everything a job holds except its notes. */
function jobFields(rand: Rand, n: number, createdMs: number) {
  const [city, state, postalCode, county] = pick(rand, PLACES);
  const homeowner = person(rand);
  const adjuster = person(rand);
  const assignee = person(rand);
  const rcv = money(rand, 40000);
  const received = money(rand, rcv);
  const created = new Date(createdMs).toISOString();
  return {
    job_number: `J-${100000 + n}`,
    name: `${homeowner.name.split(' ')[1]} residence: roof replacement`,
    job_type: rand() < 0.7 ? 'insurance' : 'retail',
    stage: pick(rand, STAGES),
    stage_label: 'In progress',
    stage_is_completed: false,
    stage_is_lost: false,
    stage_entered_at: created,
    pipeline_id: uuid(rand),
    pipeline_name: 'Residential',
    address: `${100 + Math.floor(rand() * 9800)} ${pick(rand, STREETS)}`,
    city,
    state,
    postal_code: postalCode,
    county,
    homeowner_id: homeowner.id,
    homeowner,
    adjuster_id: adjuster.id,
    adjuster,
    secondary_contact_ids: [uuid(rand)],
    secondary_adjuster_ids: [],
    assigned_to_id: assignee.id,
    assigned_to_name: assignee.name,
    assignee_ids: [assignee.id],
    assignee_names: [assignee.name],
    insurance_company: pick(rand, INSURERS),
    claim_number: `CLM-${hex(rand, 10).toUpperCase()}`,
    policy_number: `POL-${hex(rand, 8).toUpperCase()}`,
    date_of_loss: created.slice(0, 10),
    damage_types: ['hail', 'wind'],
    tags: ['storm-2026', pick(rand, ['priority', 'repeat', 'referral'])],
    lead_source: 'door_knock',
    priority: pick(rand, ['low', 'normal', 'high', 'urgent']),
    mortgage_company: null,
    financing_method: pick(rand, ['cash', 'check', 'financing']),
    rcv_amount: rcv,
    acv_amount: money(rand, rcv),
    deductible: 1000,
    supplements_amount: money(rand, 3000),
    estimated_amount: rcv,
    final_amount: null,
    total_job_value: rcv,
    amount_received: received,
    balance_due: Math.round((rcv - received) * 100) / 100,
    contract_date: null,
    installation_date: null,
    archived: false,
    completed_at: null,
    lost_at: null,
    lost_reason: null,
  };
}

/**
 * Returns a generator of jobs whose JSON is between `size.min` and `size.max` bytes: the fixed
 * fields are built first, then the notes are cut to fill up to a size drawn from the range.
 */
export function jobFactory(seed: number, size: SizeRange): () => BenchJob {
  const rand = prng(seed);
  const startMs = Date.parse('2026-01-01T00:00:00.000Z');
  let n = 0;
  return () => {
    n += 1;
    const createdMs = startMs + n * 60_000;
    const id = uuid(rand);
    const stamp = new Date(createdMs).toISOString();
    const base = {
      id,
      object: 'job' as const,
      ...jobFields(rand, n, createdMs),
      created_at: stamp,
      updated_at: stamp,
      url: `http://127.0.0.1:4010/jobs/${id}`,
      portal_url: null,
      notes: '',
    };
    const target = size.min + Math.floor(rand() * (size.max - size.min + 1));
    const room = target - Buffer.byteLength(JSON.stringify(base));
    return { ...base, notes: words(rand, room) };
  };
}

// ---------------------------------------------------------------------------------------------
// A seeded workspace resized to a number of jobs, each with everything a job brings, so a store
// of N jobs holds what N jobs would: their notes, tasks, timeline, files and money, their
// homeowners and secondary contacts, and a proportional share of the contacts on no job.

/** Any record of a workspace, read and written without its resource's type. */
type AnyRecord = Rec & { readonly [field: string]: unknown };
interface AnyCollections {
  [coll: string]: AnyRecord;
}

/** Collections whose records hang off one job (their job_id) and go where it goes. */
const ON_JOB = ['notes', 'tasks', 'timeline', 'files', 'estimates', 'invoices', 'payments'];

interface Seeded {
  jobs: Job[];
  /** The records of each job, by job id. */
  onJob: Map<string, [string, AnyRecord][]>;
  /** Contacts named by no job (crews, inspectors, mortgage companies). */
  unlinked: Contact[];
  linked: Set<string>;
}

const people = (job: Job): string[] =>
  [
    job.homeowner_id,
    job.adjuster_id,
    ...job.secondary_contact_ids,
    ...job.secondary_adjuster_ids,
  ].filter((id): id is string => id !== null);

function readSeeded(tx: Tx, workspaceId: string): Seeded {
  const ws = tx.workspace(workspaceId);
  const any = tx.scope<AnyCollections>(workspaceId);
  const jobs = ws.all('jobs');
  const onJob = new Map<string, [string, AnyRecord][]>();
  for (const coll of ON_JOB) {
    for (const rec of any.all(coll)) {
      if (typeof rec.job_id === 'string') {
        onJob.set(rec.job_id, [...(onJob.get(rec.job_id) ?? []), [coll, rec]]);
      }
    }
  }
  const linked = new Set(jobs.flatMap(people));
  const unlinked = ws.all('contacts').filter((c) => !linked.has(c.id));
  return { jobs, onJob, unlinked, linked };
}

/** Keeps the first `total` jobs; the others go with their records and people. */
function shrink(tx: Tx, workspaceId: string, seeded: Seeded, total: number, share: number): void {
  const ws = tx.workspace(workspaceId);
  const any = tx.scope<AnyCollections>(workspaceId);
  const kept = new Set(seeded.jobs.slice(0, total).flatMap(people));
  for (const job of seeded.jobs.slice(total)) {
    ws.delete('jobs', job.id);
    for (const [coll, rec] of seeded.onJob.get(job.id) ?? []) {
      any.delete(coll, rec.id);
    }
  }
  for (const id of seeded.linked) {
    if (!kept.has(id)) {
      ws.delete('contacts', id); // an adjuster stays while any kept job names them
    }
  }
  for (const contact of seeded.unlinked.slice(share)) {
    ws.delete('contacts', contact.id);
  }
}

/** Clones seeded jobs, with their records, homeowners and secondary contacts, up to `total`. */
function grow(tx: Tx, workspaceId: string, seeded: Seeded, total: number, share: number): void {
  const ws = tx.workspace(workspaceId);
  const any = tx.scope<AnyCollections>(workspaceId);
  for (let n = seeded.jobs.length; n < total; n++) {
    const source = seeded.jobs[n % seeded.jobs.length] as Job;
    const fresh = new Map<string, string>(); // a seeded person's id -> their clone's
    for (const id of [source.homeowner_id, ...source.secondary_contact_ids]) {
      const contact = id === null ? undefined : ws.get('contacts', id);
      if (contact) {
        fresh.set(contact.id, randomUUID());
        ws.put('contacts', { ...contact, id: fresh.get(contact.id) ?? contact.id });
      }
    }
    const person = (id: string) => fresh.get(id) ?? id; // adjusters stay shared, as a carrier's are
    const id = randomUUID();
    ws.put('jobs', {
      ...source,
      id,
      job_number: `J-${1001 + n}`,
      portal_token: randomUUID(),
      homeowner_id: source.homeowner_id === null ? null : person(source.homeowner_id),
      secondary_contact_ids: source.secondary_contact_ids.map(person),
    });
    for (const [coll, rec] of seeded.onJob.get(source.id) ?? []) {
      const contact =
        typeof rec.contact_id === 'string' ? { contact_id: person(rec.contact_id) } : {};
      any.put(coll, { ...rec, ...contact, id: randomUUID(), job_id: id });
    }
  }
  for (let n = seeded.unlinked.length; n < share; n++) {
    const source = seeded.unlinked[n % seeded.unlinked.length] as Contact;
    ws.put('contacts', { ...source, id: randomUUID() });
  }
}

/** Resizes a seeded workspace to `total` jobs, each with everything a job brings. */
export function resizeJobs(tx: Tx, workspaceId: string, total: number): void {
  const seeded = readSeeded(tx, workspaceId);
  if (seeded.jobs.length === 0) {
    throw new Error('the workspace has no jobs to resize');
  }
  const share = Math.round((seeded.unlinked.length * total) / seeded.jobs.length);
  if (total <= seeded.jobs.length) {
    shrink(tx, workspaceId, seeded, total, share);
  } else {
    grow(tx, workspaceId, seeded, total, share);
    tx.workspace(workspaceId).put('counters', { id: 'job_number', value: 1000 + total });
  }
}
