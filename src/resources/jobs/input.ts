import { z } from '@hono/zod-openapi';
import { requiresOneOf } from '../../platform/openapi/schemas';
import { limitParam, pagingQuery } from '../../platform/paging';
import {
  blankablePatchShape,
  createShape,
  date,
  money,
  stringList,
  text,
  usState,
  uuidInput,
} from '../common/fields';
import { FINANCING_METHODS, JOB_TYPES, PRIORITIES } from './schema';

// Fields a job body shares between create and update (spec, JobCreate and JobUpdate). A field
// whose value is stored as sent (a blank clearing it) needs nothing more than its line here and
// in JobSchema: jobs/fields.ts stores it.
export const jobFields = {
  city: text(100),
  county: text(100),
  state: usState(),
  postal_code: text(20),
  homeowner_id: uuidInput(),
  adjuster_id: uuidInput(),
  assigned_to: uuidInput().openapi({ description: 'A teammate user id from /users' }),
  lead_source: text(100),
  priority: z.enum(PRIORITIES),
  insurance_company: text(200),
  claim_number: text(100),
  policy_number: text(100),
  mortgage_company: text(200),
  date_of_loss: date(),
  contract_date: date(),
  installation_date: date(),
  financing_method: z.enum(FINANCING_METHODS),
  rcv_amount: money(),
  acv_amount: money(),
  deductible: money(),
  supplements_amount: money(),
  estimated_amount: money(),
  final_amount: money(),
  damage_types: stringList(),
  tags: stringList(),
};

// spec, JobUpdate: name and address "cannot be cleared"; a create needs both. A blank value is
// refused where it was sent, so `field` is the spelling the client used (name or job_name).
const filled = <T extends z.ZodType<string, string>>(schema: T, what: string) =>
  schema.refine((v) => v !== '', `${what} cannot be blank`);
const name = filled(text(200), 'the job name');
const address = filled(text(300), 'the address');
const stage = z.string().max(100).openapi({ description: 'A stage key or label' });

// spec, JobCreate: the aliases job_name, property_address and zip; when both spellings come,
// the field's own name wins. An error names the spelling the client used.
export const JobCreateSchema = z
  .object({
    name: name.optional(),
    job_name: name.optional().openapi({ description: 'Alias of name' }),
    address: address.optional(),
    property_address: address.optional().openapi({ description: 'Alias of address' }),
    ...createShape({
      zip: text(20).openapi({ description: 'Alias of postal_code' }),
      job_type: z.enum(JOB_TYPES),
      stage,
      pipeline_id: uuidInput(),
      notes: z.string().max(10_000).openapi({ description: 'Becomes the first note' }),
      ...jobFields,
    }),
  })
  .superRefine((body, ctx) => {
    if (body.name === undefined && body.job_name === undefined) {
      ctx.addIssue({ code: 'custom', path: ['name'], message: 'name is required (or job_name)' });
    }
    if (body.address === undefined && body.property_address === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['address'],
        message: 'address is required (or property_address)',
      });
    }
  })
  .openapi('JobCreate', {
    description: 'name (or job_name) and address (or property_address) are required',
    ...requiresOneOf([
      ['name', 'job_name'],
      ['address', 'property_address'],
    ]),
  });

export const JobUpdateSchema = z
  .object({
    ...blankablePatchShape({ ...jobFields, lost_reason: text(500) }),
    name: name.optional().openapi({ description: 'Cannot be cleared (null or "" is 400)' }),
    job_name: name.optional().openapi({ description: 'Alias of name' }),
    address: address.optional().openapi({ description: 'Cannot be cleared (null or "" is 400)' }),
    property_address: address.optional().openapi({ description: 'Alias of address' }),
    zip: text(20).nullable().optional().openapi({ description: 'Alias of postal_code' }),
    job_type: z.enum(JOB_TYPES).optional(),
    stage: stage.optional(),
    pipeline_id: uuidInput().optional(),
    archived: z.boolean().optional(),
  })
  .openapi('JobUpdate');

export type JobCreate = z.output<typeof JobCreateSchema>;
export type JobUpdate = z.output<typeof JobUpdateSchema>;

export const JobListQuery = pagingQuery.extend({
  stage: z.string().max(100).optional().openapi({ description: 'A stage key' }),
  pipeline_id: uuidInput().optional(),
  job_type: z.enum(JOB_TYPES).optional(),
  assigned_to: uuidInput()
    .optional()
    .openapi({ description: 'Matches the primary or any co-assignee' }),
  contact_id: uuidInput()
    .optional()
    .openapi({ description: 'The homeowner, adjuster or a secondary contact or adjuster' }),
  archived: z
    .enum(['true', 'false', 'any'])
    .optional()
    .openapi({ description: 'Omitted: live only; true: archived only; any: both' }),
});

export type JobListQuery = z.output<typeof JobListQuery>;

export const JobSearchQuery = z.object({
  address: z.string().optional().openapi({ description: 'Partial match' }),
  name: z.string().optional().openapi({ description: 'Partial match' }),
  job_number: z.string().optional().openapi({ description: 'Whole, case-insensitive' }),
  claim_number: z.string().optional().openapi({ description: 'Whole, case-insensitive' }),
  contact_id: uuidInput().optional(),
  limit: limitParam,
});

export type JobSearchQuery = z.output<typeof JobSearchQuery>;
