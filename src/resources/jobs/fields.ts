import type { ServiceContext } from '../../platform/service-context';
import type { Template } from '../../store';
import { requireContact } from '../contacts/api';
import { requireUser } from '../users/api';
import { type JobCreate, type JobUpdate, jobFields } from './input';
import type { Job } from './schema';

/** What a create or update body sets of a stored job. */
export type Fields = Partial<
  Omit<
    Job,
    'id' | 'object' | 'job_number' | 'portal_token' | 'created_at' | 'updated_at' | 'deleted_at'
  >
>;

// spec, Conventions: for jobs an empty string clears a field, as null does.
export function blank<T>(value: T | null | undefined): Exclude<T, ''> | null | undefined {
  return value === '' ? null : (value as Exclude<T, ''> | null | undefined);
}

/** Picks the spelling the client used: the field's own name wins over its alias. */
export const either = <T>(own: T | undefined, alias: T | undefined): T | undefined =>
  own !== undefined ? own : alias;

/** The fields with rules of their own (an alias, a list, a reference); the rest are plain. */
const OWN_RULES = [
  'postal_code',
  'homeowner_id',
  'adjuster_id',
  'assigned_to',
  'damage_types',
  'tags',
] as const;
type Plain = Exclude<keyof typeof jobFields, (typeof OWN_RULES)[number]>;

/** The fields stored as sent, a blank clearing them: text, dates, amounts, enumerations. */
const PLAIN = (Object.keys(jobFields) as (keyof typeof jobFields)[]).filter(
  (key): key is Plain => !(OWN_RULES as readonly string[]).includes(key),
);

/**
 * A new job before its body: nothing known, an insurance job, live, unassigned; what every
 * create sets is left undefined, so that a create adds no key (store Template).
 */
export const NEW_JOB = {
  ...(Object.fromEntries(PLAIN.map((key) => [key, null])) as Record<Plain, null>),
  job_type: 'insurance',
  postal_code: null,
  homeowner_id: null,
  adjuster_id: null,
  secondary_contact_ids: [],
  secondary_adjuster_ids: [],
  assigned_to_id: null,
  assignee_ids: [],
  damage_types: [],
  tags: [],
  archived: false,
  amount_received: 0,
  lost_reason: null,
  id: undefined,
  object: 'job',
  job_number: undefined,
  name: undefined,
  address: undefined,
  stage_id: undefined,
  stage_entered_at: undefined,
  completed_at: undefined,
  lost_at: undefined,
  portal_token: undefined,
  created_at: undefined,
  updated_at: undefined,
  deleted_at: null,
} satisfies Template<Job, JobSetOnCreate>;

type JobSetOnCreate =
  | 'id'
  | 'job_number'
  | 'name'
  | 'address'
  | 'stage_id'
  | 'stage_entered_at'
  | 'completed_at'
  | 'lost_at'
  | 'portal_token'
  | 'created_at'
  | 'updated_at';

/** The fields of a create or update body, normalised, with references checked. */
export function fieldsOf(ctx: ServiceContext, input: JobCreate | JobUpdate): Fields {
  const out: Fields = {};
  const set = <K extends keyof Fields>(key: K, value: Fields[K] | undefined) => {
    if (value !== undefined) {
      out[key] = value;
    }
  };
  for (const key of PLAIN) {
    set(key, blank(input[key]));
  }
  set('postal_code', blank(either(input.postal_code, input.zip)));
  const list = (value: string[] | '' | null | undefined) =>
    value === null || value === '' ? [] : value;
  set('damage_types', list(input.damage_types));
  set('tags', list(input.tags));
  set('job_type', input.job_type);
  for (const key of ['homeowner_id', 'adjuster_id'] as const) {
    const id = blank(input[key]);
    set(key, id && requireContact(ctx, id, key).id);
  }
  const assignee = blank(input.assigned_to);
  set('assigned_to_id', assignee && requireUser(ctx, assignee, 'assigned_to').id);
  return out;
}
