import { DAY, iso, type Profile, type Seeding, type SeedStep } from '../../platform/family';
import { addDays, centralDate, centralDayEnd } from '../common/central-time';
import type { Contact } from '../contacts/api';
import type { Job } from '../jobs/api';
import { ESTIMATE_STATUSES, type Estimate, type EstimateStatus } from './schema';
import { documentOf, VALID_DAYS } from './service';
import { valuesOf } from './smart-fields';

/** The share of jobs with an estimate. */
const SHARE: Record<Profile, number> = { empty: 0, small: 0.4, demo: 0.75, large: 0.3 };

// The first records of a workspace take every status in turn, in the order of the spec.
const STATUSES = ESTIMATE_STATUSES;
const WEIGHTS: Record<EstimateStatus, number> = {
  draft: 2,
  sent: 2,
  viewed: 2,
  signed: 5,
  expired: 1,
  declined: 1,
};

/** Per workspace: how many estimates so far. The first take every status in turn (demo). */
const made = new WeakMap<Seeding, number>();

/** Per workspace and job: the estimate signed on it (an invoice may name it). */
export const signedOn = new WeakMap<Seeding, Map<string, Estimate>>();

const validUntil = (date: string) => iso(centralDayEnd(date));

// Every contact is made with the jobs, before the records on each job: looked up by id once.
const contacts = new WeakMap<Seeding, Map<string, Contact>>();
function contactsOf(s: Seeding): Map<string, Contact> {
  let byId = contacts.get(s);
  if (byId === undefined) {
    byId = new Map(s.all('contacts').map((c) => [c.id, c]));
    contacts.set(s, byId);
  }
  return byId;
}

export const estimateSeed: SeedStep = {
  finish: (s) => numberEstimates(s),
  job(s, job) {
    if (!s.showcase.has(job.id) && s.faker.number.float() >= SHARE[s.profile]) {
      return;
    }
    const n = made.get(s) ?? 0;
    const status =
      n < STATUSES.length
        ? (STATUSES[n] as EstimateStatus)
        : s.faker.helpers.weightedArrayElement(
            STATUSES.map((value) => ({ value, weight: WEIGHTS[value] })),
          );
    const estimate = seedEstimate(s, job, status);
    if (estimate) {
      made.set(s, n + 1);
      s.add('estimates', estimate);
      if (estimate.status === 'signed') {
        const signed = signedOn.get(s) ?? new Map<string, Estimate>();
        signed.set(job.id, estimate);
        signedOn.set(s, signed);
      }
    }
  },
};

/** An estimate of the job in `status`, its times in order; undefined when the job is too new. */
function seedEstimate(s: Seeding, job: Job, status: EstimateStatus): Estimate | undefined {
  const f = s.faker;
  const jobMs = Date.parse(job.created_at);
  const today = centralDate(s.until);
  // An expired one was good until a day now past: it was made more than a few days ago.
  const latest = status === 'expired' ? s.until - 4 * DAY : s.until - DAY / 2;
  if (latest <= jobMs) {
    return undefined;
  }
  const created = s.when(jobMs, latest);
  const homeowner = job.homeowner_id === null ? undefined : contactsOf(s).get(job.homeowner_id);
  const templates = s.all('estimate_templates');
  const wanted =
    job.job_type === 'insurance' ? 'Insurance' : f.helpers.arrayElement(['Retail', 'Metal']);
  const template =
    f.number.int({ min: 0, max: 3 }) === 0
      ? undefined
      : (templates.find((t) => t.name.startsWith(wanted)) ?? templates[0]);
  const document = documentOf(template, valuesOf(job, homeowner), undefined);
  const price =
    template === undefined
      ? (job.final_amount ?? job.estimated_amount ?? job.rcv_amount ?? 12_500)
      : null;
  const tiers = document.packages.map((p) => p.name);

  // Each step of its life after the one before.
  const sentMs = status === 'draft' ? null : s.when(created, latest);
  const viewed =
    ['viewed', 'signed', 'declined'].includes(status) ||
    (status === 'expired' && f.datatype.boolean());
  const firstView = sentMs !== null && viewed ? s.when(sentMs, latest) : null;
  const lastView = firstView === null ? null : s.when(firstView, latest);
  const closed = lastView === null ? sentMs : lastView;
  const signedMs = status === 'signed' && closed !== null ? s.when(closed, latest) : null;
  const declinedMs = status === 'declined' && closed !== null ? s.when(closed, latest) : null;

  let until: string | null;
  if (status === 'expired') {
    // Passed before today, after it was last touched.
    const from = centralDate(Math.max(closed ?? created, created));
    until = from < addDays(today, -1) ? addDays(from, f.number.int({ min: 0, max: 2 })) : from;
    if (until >= today) {
      return undefined;
    }
  } else if (status === 'signed' || status === 'declined') {
    until = addDays(centralDate(created), VALID_DAYS);
  } else {
    until = addDays(today, f.number.int({ min: 3, max: VALID_DAYS }));
  }
  const touched = Math.max(created, sentMs ?? 0, lastView ?? 0, signedMs ?? 0, declinedMs ?? 0);
  const expiredMs = status === 'expired' ? centralDayEnd(until) + 1 : 0;
  return {
    id: f.string.uuid(),
    object: 'estimate',
    estimate_number: '',
    ...document,
    status,
    signature_status:
      status === 'draft' || (status === 'expired' && sentMs === null)
        ? null
        : status === 'sent' || status === 'viewed'
          ? 'pending'
          : status,
    selected_tier: status === 'signed' && tiers.length > 0 ? f.helpers.arrayElement(tiers) : null,
    job_id: job.id,
    template_id: template?.id ?? null,
    price,
    valid_until: validUntil(until),
    sent_at: sentMs === null ? null : iso(sentMs),
    first_viewed_at: firstView === null ? null : iso(firstView),
    last_viewed_at: lastView === null ? null : iso(lastView),
    signed_at: signedMs === null ? null : iso(signedMs),
    view_count:
      firstView === null ? 0 : f.number.int({ min: 1, max: lastView === firstView ? 1 : 4 }),
    signer_name:
      signedMs === null
        ? null
        : [homeowner?.first_name, homeowner?.last_name].filter(Boolean).join(' ') || 'Homeowner',
    created_at: iso(created),
    updated_at: iso(Math.max(touched, expiredMs)),
  };
}

/** Numbers in creation order, and the counter after them. */
export function numberEstimates(s: Seeding): void {
  const all = [...s.all('estimates')].sort((a, b) => a.created_at.localeCompare(b.created_at));
  all.forEach((e, i) => {
    (e as { estimate_number: string | null }).estimate_number = `E-${1001 + i}`;
  });
  if (all.length > 0) {
    s.add('counters', { id: 'estimate_number', value: 1000 + all.length });
  }
}
