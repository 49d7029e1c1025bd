import { DAY, iso, type Profile, type Seeding, type SeedStep } from '../../platform/family';
import { type Geography, isLocated } from '../common/geo';
import type { Contact } from '../contacts/api';
import type { Job } from '../jobs/api';
import type { User } from '../users/api';
import { KNOCK_RESULTS, type KnockResult, type Pin, type PinType } from './schema';

// The canvassing around the jobs: each job's street was knocked (its neighbours' doors, in every
// knock result), and a job that came from a door knock has its own door's pin, which became it.
// Pins are placed as POST /pins places an address, so the same address lands on the same spot.

/** Neighbours' doors knocked per job, on average (large is for benchmarks). */
const PER_JOB: Record<Profile, number> = { empty: 0, small: 1.5, demo: 2.5, large: 0.3 };

/** What the rep wrote down, by result; a result without lines gets no note. */
const NOTES: Partial<Record<KnockResult, readonly string[]>> = {
  interested: ['Saw hail hits on the gutters; wants an inspection.', 'Asked about the deductible.'],
  not_interested: ['Says the roof is fine.', 'Already has a roofer.'],
  contacted: ['Spoke with the homeowner; will think about it.'],
  no_answer: ['Nobody home; try the weekend.', 'Dog in the yard, nobody came to the door.'],
  door_hanger: ['Left a door hanger with the storm date.'],
  follow_up: ['Spouse decides; come back after 6 pm.', 'Call after the adjuster visit.'],
  appointment_scheduled: ['Inspection booked for Saturday morning.'],
  dont_knock: ['No soliciting sign.', 'Asked us not to come back.'],
  renter: ['Renter; landlord lives out of state.'],
  no_damage: ['Checked the soft metals: no hits.'],
  cash_quote: ['Below the deductible; wants a cash price for the back slope.'],
  lost: ['Signed with another contractor.'],
};

/** Results where someone came to the door (and may have given a name). */
const ANSWERED = new Set<KnockResult>([
  'interested',
  'not_interested',
  'contacted',
  'follow_up',
  'appointment_scheduled',
  'renter',
  'no_damage',
  'cash_quote',
  'lost',
]);

/** How a door that became a job was left before it did. */
const CONVERTED: readonly KnockResult[] = ['appointment_scheduled', 'interested', 'follow_up'];

interface Street {
  number: number;
  name: string;
}

/** "1234 Oak Street": its house number and street, for the doors beside it. */
function streetOf(address: string): Street | undefined {
  const m = /^(\d+)\s+(.+)$/.exec(address.trim());
  return m?.[1] && m[2] ? { number: Number(m[1]), name: m[2] } : undefined;
}

interface Around {
  s: Seeding;
  geo: Geography;
  /** Who knocks doors: the sales reps (the owner when there are none). */
  reps: readonly User[];
  users: ReadonlyMap<string, User>;
  homeowners: ReadonlyMap<string, Contact>;
  /** Results not seeded yet: the first neighbours' doors take them, so every one appears. */
  unseen: KnockResult[];
  /** Whether an inspection was seeded yet: the first door that could be one is. */
  inspected: boolean;
}

function nextResult(a: Around): KnockResult {
  return a.unseen.shift() ?? a.s.faker.helpers.arrayElement(KNOCK_RESULTS);
}

const noteFor = (s: Seeding, result: KnockResult | null): string | null => {
  const lines = result === null ? undefined : NOTES[result];
  return lines && s.faker.datatype.boolean(0.6) ? s.faker.helpers.arrayElement(lines) : null;
};

type Draft = Pick<Pin, 'pin_type' | 'knock_result' | 'job_id' | 'created_by_id'> & {
  address: string;
  postal_code: string | null;
  person: Pick<Pin, 'homeowner_first_name' | 'homeowner_last_name' | 'phone' | 'email'>;
  createdMs: number;
  updatedMs: number;
};

function put(a: Around, draft: Draft): void {
  const found = a.geo.locate({ address: draft.address, postal_code: draft.postal_code });
  if (!isLocated(found)) {
    return;
  }
  const { person } = draft;
  a.s.add('pins', {
    id: a.s.faker.string.uuid(),
    object: 'pin',
    pin_type: draft.pin_type,
    knock_result: draft.knock_result,
    address: found.address,
    city: found.city,
    state: found.state,
    postal_code: found.postal_code,
    latitude: found.latitude,
    longitude: found.longitude,
    homeowner_name:
      [person.homeowner_first_name, person.homeowner_last_name]
        .filter((p) => p !== null)
        .join(' ') || null,
    ...person,
    notes: noteFor(a.s, draft.knock_result),
    job_id: draft.job_id,
    created_by_id: draft.created_by_id,
    created_at: iso(draft.createdMs),
    updated_at: iso(draft.updatedMs),
  });
}

const NOBODY = {
  homeowner_first_name: null,
  homeowner_last_name: null,
  phone: null,
  email: null,
};

/** Who came to the door, as far as the rep got: a name, now and then a phone or an email. */
function stranger(s: Seeding, result: KnockResult): Draft['person'] {
  const f = s.faker;
  if (!ANSWERED.has(result) || !f.datatype.boolean(0.7)) {
    return NOBODY;
  }
  const first = f.person.firstName();
  const last = f.person.lastName();
  return {
    homeowner_first_name: first,
    homeowner_last_name: f.datatype.boolean(0.85) ? last : null,
    phone: f.datatype.boolean(0.4) ? f.phone.number({ style: 'national' }) : null,
    email: f.datatype.boolean(0.2)
      ? f.internet
          .email({ firstName: first, lastName: last, provider: 'example.com' })
          .toLowerCase()
      : null,
  };
}

/** The rep's first knock there: never before they joined, never after the horizon. */
const knockedAt = (s: Seeding, rep: User | undefined, fromMs: number): number =>
  Math.min(Math.max(fromMs, rep ? Date.parse(rep.created_at) : s.since), s.until - DAY / 24);

/** The job's own door: knocked before the job was made, and made into it. */
function doorOf(a: Around, job: Job, address: string): void {
  const { s } = a;
  // The rep who knocked it works the job, as a conversion makes it.
  const rep =
    (job.assigned_to_id === null ? undefined : a.users.get(job.assigned_to_id)) ??
    s.faker.helpers.arrayElement(a.reps);
  const owner = job.homeowner_id === null ? undefined : a.homeowners.get(job.homeowner_id);
  const made = Date.parse(job.created_at);
  put(a, {
    pin_type: 'job',
    knock_result: s.faker.helpers.arrayElement(CONVERTED),
    job_id: job.id,
    created_by_id: rep.id,
    address,
    postal_code: job.postal_code,
    person: owner
      ? {
          homeowner_first_name: owner.first_name,
          homeowner_last_name: owner.last_name,
          phone: owner.phone,
          email: owner.email,
        }
      : NOBODY,
    createdMs: Math.min(
      knockedAt(s, rep, made - s.faker.number.int({ min: 1, max: 7 }) * DAY),
      made,
    ),
    updatedMs: made,
  });
}

/** The doors beside the job's, on its side of the street. */
function neighboursOf(a: Around, job: Job): void {
  const { s } = a;
  const f = s.faker;
  const street = job.address === null ? undefined : streetOf(job.address);
  const made = Date.parse(job.created_at);
  for (let i = s.count(PER_JOB[s.profile]); i > 0; i--) {
    const result = nextResult(a);
    const step = 2 * f.number.int({ min: 1, max: 12 }) * (f.datatype.boolean() ? 1 : -1);
    const address = street
      ? `${Math.max(street.number + step, 1)} ${street.name}`
      : f.location.streetAddress();
    const rep = f.helpers.arrayElement(a.reps);
    const createdMs = knockedAt(s, rep, s.when(Math.max(made - 3 * DAY, s.since)));
    // A door followed up on was changed after it was first logged.
    const revisited = ['follow_up', 'appointment_scheduled', 'cash_quote', 'lost'].includes(result);
    const inspect =
      ['interested', 'appointment_scheduled', 'no_damage'].includes(result) &&
      (!a.inspected || f.datatype.boolean(0.3));
    a.inspected ||= inspect;
    put(a, {
      pin_type: (inspect ? 'inspection' : 'knock') satisfies PinType,
      knock_result: result,
      job_id: null,
      created_by_id: rep.id,
      address,
      postal_code: job.postal_code,
      person: stranger(s, result),
      createdMs,
      updatedMs: revisited ? s.when(createdMs) : createdMs,
    });
  }
}

/**
 * Drawn once every other record is made (a `finish`, not a workspace step): adding pins left
 * every other seeded record as it was.
 */
export const pinSeed = (geo: Geography): SeedStep => ({
  finish(s) {
    const jobs = s.all('jobs');
    const users = s.all('users');
    const reps = users.filter((u) => u.role === 'sales_rep');
    if (jobs.length === 0 || users.length === 0) {
      return;
    }
    const around: Around = {
      s,
      geo,
      reps: reps.length > 0 ? reps : users,
      users: new Map(users.map((u) => [u.id, u])),
      homeowners: new Map(s.all('contacts').map((c) => [c.id, c])),
      unseen: [...KNOCK_RESULTS],
      inspected: false,
    };
    for (const job of jobs) {
      if (job.lead_source === 'Door knock' && job.address) {
        doorOf(around, job, job.address);
      }
      neighboursOf(around, job);
    }
  },
});
