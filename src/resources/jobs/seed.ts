import { DAY, iso, type Profile, type Seeding, type SeedStep } from '../../platform/family';
import type { Contact } from '../contacts/api';
import { ADJUSTER_TYPES, MORTGAGE_COMPANIES, seedContact } from '../contacts/seed';
import type { Pipeline, Stage } from '../pipelines/api';
import { APPOINTMENT_FOR_STAGE, STAGE_WEIGHTS } from '../pipelines/seed';
import type { User } from '../users/api';
import { NEW_JOB } from './fields';
import type { Job } from './schema';

// Jobs of a seeded workspace, coherent with the people on them (a homeowner lives at the job's
// address, an adjuster works for the job's carrier) and spread over both boards.

/** Carriers with the shape of their claim numbers (# a digit, A a letter). */
export const CARRIERS = [
  { name: 'State Farm', claim: '##-####-###', policy: '###-####-##' },
  { name: 'Allstate', claim: '0#########', policy: '9#########' },
  { name: 'USAA', claim: '###########-###', policy: '#######-##' },
  { name: 'Farmers Insurance', claim: '#########-#', policy: '9########' },
  { name: 'Liberty Mutual', claim: 'LM-########', policy: 'H##-###-######-##' },
  { name: 'Travelers', claim: 'AAA####', policy: '###-###-###-###' },
  { name: 'Nationwide', claim: '##-######-##', policy: '##-HO-######' },
  { name: 'American Family', claim: '##-###-######', policy: '##-A###-##' },
  { name: 'Progressive', claim: '##-#######', policy: '########' },
  { name: 'Auto-Owners', claim: '###-####-####', policy: '##-###-###-##' },
] as const;

export const DAMAGE_TYPES = ['hail', 'wind', 'tree impact', 'water', 'ice dam'] as const;

export const LEAD_SOURCES = [
  'Door knock',
  'Referral',
  'Storm list',
  'Website',
  'Google',
  'Facebook',
  'Yard sign',
  'Repeat customer',
] as const;

export const TAGS = [
  'hail-2026',
  'gutters',
  'siding',
  'supplement',
  'priority',
  'HOA',
  'solar',
  'metal',
] as const;

export const LOST_REASONS = [
  'Claim denied',
  'Went with another contractor',
  'Homeowner unresponsive',
  'Price too high',
  'Below deductible',
] as const;

/** Jobs each profile carries (large is for benchmarks: 10,000 jobs, about 25 MB). */
const JOBS: Record<Profile, number> = { empty: 0, small: 14, demo: 72, large: 10_000 };

/** What the jobs of one workspace are made with. */
interface Crew {
  pipelines: readonly Pipeline[];
  stages: readonly Stage[];
  reps: User[];
  managers: User[];
  /** Adjusters by carrier: each carrier sends a few to many jobs. */
  adjusters: Map<string, Contact[]>;
  jobs: Job[];
}

function adjusterFor(s: Seeding, ctx: Crew, carrier: string, at: number): Contact {
  const f = s.faker;
  const pool = ctx.adjusters.get(carrier) ?? [];
  if (pool.length < 3 || f.number.int({ min: 0, max: 9 }) === 0) {
    pool.push(
      seedContact(
        s,
        {
          type: 'adjuster',
          company: carrier,
          adjuster_type: f.helpers.arrayElement(ADJUSTER_TYPES),
          adjuster_extension: String(f.number.int({ min: 100, max: 9999 })),
        },
        at,
      ),
    );
    ctx.adjusters.set(carrier, pool);
  }
  return f.helpers.arrayElement(pool);
}

/**
 * One job, with its homeowner (and adjuster). `board` (0 insurance, 1 retail) places it on
 * that board in a column that books appointments; otherwise both are drawn.
 */
function seedJob(s: Seeding, board: number | undefined, ctx: Crew): Job {
  const f = s.faker;
  const drawn = f.number.int({ min: 0, max: 3 }) === 0 ? 1 : 0;
  const retail = (board ?? drawn) === 1;
  const pipeline = ctx.pipelines[retail ? 1 : 0] ?? ctx.pipelines[0];
  const stages = ctx.stages.filter((s) => s.pipeline_id === pipeline?.id);
  const bookable = stages.filter((s) => APPOINTMENT_FOR_STAGE[s.key] !== undefined);
  const stage = f.helpers.weightedArrayElement(
    (board === undefined || bookable.length === 0 ? stages : bookable).map((s) => ({
      weight: STAGE_WEIGHTS[s.key] ?? 1,
      value: s,
    })),
  );
  const progress = stages.indexOf(stage) / Math.max(stages.length - 1, 1);
  const created = s.when(s.since + 30 * DAY, s.until - 2 * DAY);
  const entered = s.when(created);
  const place = s.place();
  const homeowner = seedContact(s, { type: 'homeowner', ...place }, created);
  const carrier = f.helpers.arrayElement(CARRIERS);
  const claimed = !retail && progress >= 0.25;
  const adjuster = claimed && !stage.is_lost ? adjusterFor(s, ctx, carrier.name, created) : null;
  const rep = f.helpers.arrayElement(ctx.reps);
  const manager =
    progress >= 0.5 && ctx.managers.length > 0 ? f.helpers.arrayElement(ctx.managers) : null;
  const rcv = claimed
    ? f.number.int({ min: 8_000, max: 42_000 }) + f.number.int({ min: 0, max: 99 }) / 100
    : null;
  const contract = retail && progress >= 0.3 ? f.number.int({ min: 6_000, max: 28_000 }) : null;
  const at = (s: Stage, flag: 'is_completed' | 'is_lost') => (s[flag] ? iso(entered) : null);
  const job: Job = {
    ...NEW_JOB,
    id: f.string.uuid(),
    object: 'job',
    job_number: '',
    name: `${homeowner.last_name} ${retail ? 'Retail' : 'Roof'}${f.number.int({ min: 0, max: 4 }) === 0 ? ' + Gutters' : ''}`,
    job_type: retail ? 'retail' : 'insurance',
    stage_id: stage.id,
    stage_entered_at: iso(entered),
    ...place,
    county: null,
    homeowner_id: homeowner.id,
    adjuster_id: adjuster?.id ?? null,
    secondary_contact_ids:
      f.number.int({ min: 0, max: 9 }) === 0
        ? [seedContact(s, { type: 'homeowner', ...place }, created).id]
        : [],
    secondary_adjuster_ids: [],
    assigned_to_id: rep?.id ?? null,
    assignee_ids: [rep?.id, manager?.id].filter((id): id is string => id !== undefined),
    insurance_company: retail ? null : carrier.name,
    claim_number: claimed ? f.helpers.replaceSymbols(carrier.claim) : null,
    policy_number: claimed ? f.helpers.replaceSymbols(carrier.policy) : null,
    date_of_loss: retail
      ? null
      : iso(created - f.number.int({ min: 3, max: 60 }) * DAY).slice(0, 10),
    damage_types: retail ? [] : f.helpers.arrayElements(DAMAGE_TYPES, { min: 1, max: 2 }),
    tags: f.helpers.arrayElements(TAGS, { min: 0, max: 2 }),
    lead_source: f.helpers.arrayElement(LEAD_SOURCES),
    priority: f.helpers.arrayElement([
      'low',
      'normal',
      'normal',
      'normal',
      'high',
      'urgent',
    ] as const),
    mortgage_company:
      claimed && f.number.int({ min: 0, max: 2 }) === 0
        ? f.helpers.arrayElement(MORTGAGE_COMPANIES)
        : null,
    financing_method:
      retail && contract !== null
        ? f.helpers.arrayElement(['cash', 'check', 'credit_card', 'financing'] as const)
        : null,
    rcv_amount: rcv,
    acv_amount:
      rcv === null ? null : Math.round(rcv * f.number.float({ min: 0.68, max: 0.86 }) * 100) / 100,
    deductible: claimed ? f.helpers.arrayElement([500, 1000, 1000, 1500, 2000, 2500]) : null,
    supplements_amount: claimed && progress >= 0.5 ? f.number.int({ min: 400, max: 4_500 }) : null,
    estimated_amount: retail || !claimed ? f.number.int({ min: 7_000, max: 30_000 }) : null,
    final_amount: contract,
    contract_date: progress >= 0.5 && !stage.is_lost ? iso(entered - 5 * DAY).slice(0, 10) : null,
    installation_date: progress >= 0.75 && !stage.is_lost ? iso(entered).slice(0, 10) : null,
    archived: (stage.is_completed || stage.is_lost) && f.number.int({ min: 0, max: 9 }) === 0,
    completed_at: at(stage, 'is_completed'),
    lost_at: at(stage, 'is_lost'),
    lost_reason: stage.is_lost ? f.helpers.arrayElement(LOST_REASONS) : null,
    portal_token: f.string.alphanumeric(24),
    created_at: iso(created),
    updated_at: iso(entered),
    deleted_at: null,
  };
  ctx.jobs.push(job);
  if (stages.indexOf(stage) > 0) {
    s.add('timeline', {
      id: f.string.uuid(),
      object: 'timeline_entry',
      job_id: job.id,
      kind: 'stage_changed',
      from_stage_id: stages[stages.indexOf(stage) - 1]?.id ?? null,
      to_stage_id: stage.id,
      created_at: iso(entered),
    });
  }
  return job;
}

/**
 * The workspace's jobs. Whatever the seed, the first job of each board sits in a column that
 * books an appointment (the showcase: its tasks and notes make sure of one of each), so even
 * `small` shows both boards' flows. Job numbers follow the order jobs were made in.
 */
export const jobSeed: SeedStep = {
  workspace(s) {
    const n = JOBS[s.profile];
    if (n === 0) {
      return;
    }
    const users = s.all('users');
    const byRole = (...roles: User['role'][]) => users.filter((u) => roles.includes(u.role));
    const ctx: Crew = {
      pipelines: s.all('pipelines'),
      stages: s.all('stages'),
      reps: byRole('sales_rep').length > 0 ? byRole('sales_rep') : byRole('owner', 'admin'),
      managers: byRole('project_manager', 'manager'),
      adjusters: new Map(),
      jobs: [],
    };
    for (let i = 0; i < n; i++) {
      const board = i < ctx.pipelines.length ? i : undefined;
      const job = seedJob(s, board, ctx);
      if (board !== undefined) {
        s.showcase.add(job.id);
      }
    }
    ctx.jobs.sort((a, b) =>
      a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0,
    );
    ctx.jobs.forEach((job, i) => {
      job.job_number = `J-${1001 + i}`;
    });
    s.add('jobs', ...ctx.jobs);
    s.add('counters', { id: 'job_number', value: 1000 + ctx.jobs.length });
  },
};
