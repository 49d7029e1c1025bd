import { z } from '@hono/zod-openapi';
import { listOf, nullableTimestamp, timestamp } from '../../platform/openapi/schemas';
import type { Rec } from '../../store';

export const JOB_TYPES = ['insurance', 'retail'] as const;
export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const FINANCING_METHODS = ['cash', 'check', 'credit_card', 'financing', 'other'] as const;

/** What happened to a job, for its timeline in the app (stage moves and the like). */
export type TimelineEntry = Rec & {
  object: 'timeline_entry';
  job_id: string;
  kind: 'stage_changed';
  from_stage_id: string | null;
  to_stage_id: string;
  created_at: string;
};

/** Per-workspace sequences (job numbers). */
export type Counter = Rec & { value: number };

declare module '../../store/collections' {
  interface WorkspaceCollections {
    jobs: Job;
    timeline: TimelineEntry;
    counters: Counter;
  }
}

const nullable = z.string().nullable();
const amount = z.number().nullable();
const day = nullable.openapi({ format: 'date' });

export const PersonRefSchema = z
  .object({ id: z.uuid(), name: nullable, email: nullable, phone: nullable })
  .openapi('PersonRef');

export const JobSchema = z
  .object({
    id: z.uuid(),
    object: z.literal('job'),
    job_number: nullable,
    name: nullable,
    job_type: z.string().meta({ description: 'insurance or retail', example: 'insurance' }),
    stage: nullable.openapi({ description: 'Stage key; filter on this' }),
    stage_label: nullable,
    stage_is_completed: z.boolean().nullable(),
    stage_is_lost: z.boolean().nullable(),
    stage_entered_at: nullableTimestamp(),
    pipeline_id: z.uuid().nullable(),
    pipeline_name: nullable,
    address: nullable,
    city: nullable,
    state: nullable.openapi({ description: 'Two-letter code' }),
    postal_code: nullable,
    county: nullable,
    homeowner_id: z.uuid().nullable(),
    homeowner: PersonRefSchema.nullable(),
    adjuster_id: z.uuid().nullable(),
    adjuster: PersonRefSchema.nullable(),
    secondary_contact_ids: z.array(z.uuid()),
    secondary_adjuster_ids: z.array(z.uuid()),
    assigned_to_id: z.uuid().nullable(),
    assigned_to_name: nullable,
    assignee_ids: z.array(z.uuid()),
    assignee_names: z.array(z.string()),
    insurance_company: nullable,
    claim_number: nullable,
    policy_number: nullable,
    date_of_loss: day,
    damage_types: z.array(z.string()),
    tags: z.array(z.string()),
    lead_source: nullable,
    priority: nullable.openapi({ description: 'low, normal, high, urgent' }),
    mortgage_company: nullable,
    financing_method: nullable.openapi({
      description: 'cash, check, credit_card, financing, other',
    }),
    rcv_amount: amount,
    acv_amount: amount,
    deductible: amount,
    supplements_amount: amount,
    estimated_amount: amount,
    final_amount: amount,
    total_job_value: amount,
    amount_received: amount,
    balance_due: amount,
    contract_date: day,
    installation_date: day,
    archived: z.boolean(),
    completed_at: nullableTimestamp(),
    lost_at: nullableTimestamp(),
    lost_reason: nullable,
    created_at: timestamp(),
    updated_at: timestamp(),
    url: z.url(),
    portal_url: z.url().nullable(),
  })
  .openapi('Job');

export type JobOut = z.infer<typeof JobSchema>;

/** What GET shows of a job that svc works out, from its column, its people, its money. */
type Worked =
  | 'object'
  | 'stage'
  | 'stage_label'
  | 'stage_is_completed'
  | 'stage_is_lost'
  | 'pipeline_id'
  | 'pipeline_name'
  | 'homeowner'
  | 'adjuster'
  | 'assigned_to_name'
  | 'assignee_names'
  | 'total_job_value'
  | 'balance_due'
  | 'url'
  | 'portal_url';

/**
 * A job as stored: every field GET shows but those worked out, with the rules a job always
 * keeps (a number, an address, a type), and what only svc keeps.
 */
export type Job = Rec &
  Omit<JobOut, 'id' | Worked> & {
    object: 'job';
    job_number: string;
    address: string;
    job_type: (typeof JOB_TYPES)[number];
    priority: (typeof PRIORITIES)[number] | null;
    financing_method: (typeof FINANCING_METHODS)[number] | null;
    /** The stage (and so the pipeline) the job is in. */
    stage_id: string;
    /** Opens the homeowner's job page. */
    portal_token: string;
    /** Set while the job is in the recoverable area (30 days). */
    deleted_at: string | null;
    /**
     * Money in hand, kept on the job by every payment change (decisions.md, Jobs), as the app
     * keeps its money tab; a data file from before it has none, and it is summed when shown.
     */
    amount_received?: number;
  };

export const JobListSchema = listOf(JobSchema, 'JobList');
export type JobList = z.infer<typeof JobListSchema>;
