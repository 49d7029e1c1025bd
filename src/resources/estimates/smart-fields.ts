import type { ServiceContext } from '../../platform/service-context';
import type { Line } from '../common/line-items';
import type { Contact } from '../contacts/api';
import { findContact } from '../contacts/api';
import type { Job } from '../jobs/api';

// A template's smart fields, filled from the job an estimate is made for: `{homeowner_name}`,
// `{address}`, `{carrier}`, `{claim_number}`, `{policy_number}`, `{job_name}`, `{job_number}`.

export type SmartValues = Record<string, string | null>;

export const smartValues = (ctx: ServiceContext, job: Job): SmartValues =>
  valuesOf(job, job.homeowner_id ? findContact(ctx, job.homeowner_id) : undefined);

/** The smart fields' values for a job and its homeowner (the seeder has no service context). */
export function valuesOf(job: Job, homeowner: Contact | undefined): SmartValues {
  const name = homeowner
    ? [homeowner.first_name, homeowner.last_name].filter(Boolean).join(' ') ||
      homeowner.company ||
      null
    : null;
  const address = [job.address, job.city].filter(Boolean).join(', ') || null;
  return {
    homeowner_name: name,
    address,
    carrier: job.insurance_company,
    claim_number: job.claim_number,
    policy_number: job.policy_number,
    job_name: job.name,
    job_number: job.job_number,
  };
}

const FIELD = /\{([a-z_]+)\}/g;

/** A text with its smart fields filled; undefined when one has no value. */
function fill(text: string, values: SmartValues): string | undefined {
  let missing = false;
  const out = text.replace(FIELD, (whole, key: string) => {
    const value = values[key];
    if (value === null || value === undefined || value === '') {
      missing = true;
      return whole;
    }
    return value;
  });
  return missing ? undefined : out;
}

/**
 * A title of " · "-joined segments: a segment whose smart field the job lacks is left out, so a
 * title never shows an empty gap or an unfilled field.
 */
export const fillTitle = (title: string, values: SmartValues): string | null =>
  title
    .split(' · ')
    .map((segment) => fill(segment, values))
    .filter((segment): segment is string => segment !== undefined)
    .join(' · ') || null;

/** A line's name with its smart fields filled ("—" where the job has no value). */
export const fillLine = (line: Line, values: SmartValues): Line => ({
  ...line,
  name: line.name.replace(FIELD, (_whole, key: string) => values[key] || '—'),
});
